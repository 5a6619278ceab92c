package io.icegate.cli.config;

import io.icegate.cli.CliException;
import io.icegate.cli.ExitCode;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

/**
 * {@code ~/.icegate/config}: a Java properties file with the keys {@code endpoint}, {@code
 * token-file} and {@code account}. A missing file is empty; an unknown key is an error so a typo
 * does not silently fall back to a default. A token itself is not a key: it belongs in the file
 * {@code token-file} names.
 */
public final class ConfigFile {
  static final Set<String> KEYS = Set.of("endpoint", "token-file", "account");

  private final Path path;
  private final Properties properties;

  private ConfigFile(Path path, Properties properties) {
    this.path = path;
    this.properties = properties;
  }

  /** {@code HOME/.icegate/config}. */
  public static Path location(Path home) {
    return home.resolve(".icegate").resolve("config");
  }

  /**
   * Reads the file at {@code path}.
   *
   * @throws CliException USAGE for an unreadable file or an unknown key
   */
  public static ConfigFile read(Path path) {
    Properties properties = new Properties();
    if (Files.isRegularFile(path)) {
      try (Reader reader = Files.newBufferedReader(path)) {
        properties.load(reader);
      } catch (IOException e) {
        throw new CliException(ExitCode.USAGE, "cannot read " + path + ": " + e.getMessage());
      }
    }
    for (String key : properties.stringPropertyNames()) {
      if (!KEYS.contains(key)) {
        throw new CliException(ExitCode.USAGE, path + ": unknown key '" + key
            + "' (known: endpoint, token-file, account)");
      }
    }
    return new ConfigFile(path, properties);
  }

  /** The value of {@code key}, if set and not blank. */
  public Optional<String> get(String key) {
    String value = properties.getProperty(key);
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
  }

  /**
   * A path value: {@code ~/x} is taken from {@code home}, another relative path from the config
   * file's directory.
   */
  public Optional<Path> path(String key, Path home) {
    return get(key).map(v -> v.startsWith("~/")
        ? home.resolve(v.substring(2))
        : path.getParent().resolve(v));
  }
}
