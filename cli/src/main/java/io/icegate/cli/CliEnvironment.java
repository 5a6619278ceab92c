package io.icegate.cli;

import java.io.Console;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
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
 * @param errTerminal whether {@code err} is a terminal: progress is then redrawn in place with a
 *     carriage return; otherwise (a pipe, a file, a CI log) it is printed as plain lines
 */
public record CliEnvironment(Map<String, String> variables, Path home, SecretPrompt prompt,
    PrintWriter out, PrintWriter err, boolean errTerminal) {

  /** An environment whose {@code err} is not a terminal (tests, pipes). */
  public CliEnvironment(Map<String, String> variables, Path home, SecretPrompt prompt,
      PrintWriter out, PrintWriter err) {
    this(variables, home, prompt, out, err, false);
  }

  /** Reads a secret from the terminal without echoing it. */
  @FunctionalInterface
  public interface SecretPrompt {
    /** The typed characters, or empty when no terminal is attached. */
    Optional<char[]> read(String label);
  }

  /**
   * The process's environment, {@code $HOME} (else {@code user.home}), {@link System#console()}
   * and stdout/stderr, and whether stderr is a terminal ({@link #stderrIsTerminal()}).
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
        new PrintWriter(System.out, true), new PrintWriter(System.err, true),
        stderrIsTerminal());
  }

  /**
   * Whether file descriptor 2 is a terminal. Java 17 has no isatty: on Linux the descriptor's
   * {@code /proc} link names its device ({@code /dev/pts/N}, {@code /dev/ttyN}); elsewhere the
   * answer falls back to {@link System#console()} (stdin and stdout both terminals). {@code
   * TERM=dumb} (editors, some CI runners) counts as no terminal.
   */
  static boolean stderrIsTerminal() {
    if ("dumb".equals(System.getenv("TERM"))) {
      return false;
    }
    Path fd = Path.of("/proc/self/fd/2");
    try {
      if (Files.isSymbolicLink(fd)) {
        String device = Files.readSymbolicLink(fd).toString();
        return device.startsWith("/dev/pts/") || device.startsWith("/dev/tty");
      }
    } catch (IOException | SecurityException | UnsupportedOperationException e) {
      // no /proc view of the descriptor: use the console test below
    }
    return System.console() != null;
  }

  /** The variable {@code name}, if set and not blank. */
  public Optional<String> variable(String name) {
    String value = variables.get(name);
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
  }
}
