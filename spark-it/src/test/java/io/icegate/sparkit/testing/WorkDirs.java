package io.icegate.sparkit.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Fresh directories for a test class: gateway data dir and log, Spark's local dir. They live under
 * the system property {@code spark-it.work} ({@code target/spark-it-work} in the build), so a
 * failed run can be inspected and {@code mvn clean} removes them. Not {@code java.io.tmpdir}: the
 * JDK reads that once at startup, before surefire sets it.
 */
public final class WorkDirs {
  private WorkDirs() {}

  /** A new, empty directory whose name starts with {@code prefix}. */
  public static Path fresh(String prefix) throws IOException {
    Path root = Path.of(System.getProperty("spark-it.work", "target/spark-it-work"));
    Files.createDirectories(root);
    return Files.createTempDirectory(root.toAbsolutePath(), prefix);
  }
}
