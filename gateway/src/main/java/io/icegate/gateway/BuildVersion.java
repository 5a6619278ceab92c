package io.icegate.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;

/**
 * The product version, as the build recorded it: {@code build.properties} beside this class is
 * filled in by Maven resource filtering (gateway/pom.xml) from the project version, so the jar,
 * the test class path and {@code ./icegate} all print the version they were built as.
 */
public final class BuildVersion implements CommandLine.IVersionProvider {
  private static final String RESOURCE = "build.properties";

  /** The version, e.g. {@code 0.1.0-SNAPSHOT}. */
  public static String version() {
    Properties properties = new Properties();
    try (InputStream in = BuildVersion.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the build");
      }
      properties.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String version = properties.getProperty("version", "");
    if (version.isEmpty() || version.contains("${")) {
      throw new IllegalStateException(RESOURCE + " was not filtered by the build");
    }
    return version;
  }

  @Override
  public String[] getVersion() {
    return new String[] {"icegate " + version()};
  }

  /** Gives every command of {@code root}'s tree that has a version option this provider. */
  static CommandLine installOn(CommandLine root) {
    BuildVersion provider = new BuildVersion();
    root.getCommandSpec().versionProvider(provider);
    root.getSubcommands().values().forEach(BuildVersion::installOn);
    return root;
  }
}
