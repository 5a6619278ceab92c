package io.icegate.storage.sqlite.durability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Where the durability runs put their SQLite files: in memory-backed {@code /dev/shm} when the host
 * has it, else under {@code fallback}. The runs test the protocol's answers to commit faults, not
 * the disk; with {@code synchronous=FULL} every commit would otherwise wait for an fsync, which
 * turns a thousand short runs into minutes. Crash safety on a real disk is covered by {@code
 * SqliteCrashSafetyTest}.
 */
final class RunFiles implements AutoCloseable {
  private static final Path SHM = Path.of("/dev/shm");
  private final Path dir;
  private final boolean owned;

  RunFiles(Path fallback) {
    Path chosen = fallback;
    boolean own = false;
    if (Files.isDirectory(SHM) && Files.isWritable(SHM)) {
      try {
        chosen = Files.createTempDirectory(SHM, "icegate-durability-");
        own = true;
      } catch (IOException e) {
        chosen = fallback;
      }
    }
    this.dir = chosen;
    this.owned = own;
  }

  Path file(String name) {
    return dir.resolve(name);
  }

  @Override
  public void close() {
    if (!owned) {
      return; // JUnit removes its @TempDir
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
