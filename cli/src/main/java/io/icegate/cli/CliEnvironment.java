package io.icegate.cli;

import java.io.Console;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * What the commands read from outside their arguments: environment variables, the home directory
 * (for {@code ~/.icegate/config}), a no-echo prompt for secrets, and the two output streams. Tests
 * run the CLI in-process with their own instance instead of the process's.
 *
 * @param variables environment variables
 * @param home the user's home directory
 * @param prompt reads a secret without echo; empty when there is no terminal
 * @param out standard output (tables, JSON)
 * @param err standard error (notes, errors)
 */
public record CliEnvironment(Map<String, String> variables, Path home, SecretPrompt prompt,
    PrintWriter out, PrintWriter err) {

  /** Reads a secret from the terminal without echoing it. */
  @FunctionalInterface
  public interface SecretPrompt {
    /** The typed characters, or empty when no terminal is attached. */
    Optional<char[]> read(String label);
  }

  /**
   * The process's environment, {@code $HOME} (else {@code user.home}), {@link System#console()}
   * and stdout/stderr.
   */
  public static CliEnvironment system() {
    SecretPrompt prompt = label -> {
      Console console = System.console();
      return console == null
          ? Optional.empty()
          : Optional.ofNullable(console.readPassword("%s: ", label));
    };
    // $HOME first, as shells and other CLIs read it; the JVM's user.home comes from the password
    // database and ignores an overridden HOME.
    String home = System.getenv("HOME");
    return new CliEnvironment(System.getenv(),
        Path.of(home == null || home.isBlank() ? System.getProperty("user.home") : home), prompt,
        new PrintWriter(System.out, true), new PrintWriter(System.err, true));
  }

  /** The variable {@code name}, if set and not blank. */
  public Optional<String> variable(String name) {
    String value = variables.get(name);
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
  }
}
