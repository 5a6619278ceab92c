package io.icegate.cli.command;

import io.icegate.cli.CliEnvironment;
import io.icegate.cli.CliException;
import io.icegate.cli.ExitCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where one write-only value comes from: a file, an environment variable, or a no-echo prompt.
 * There is no way to give the value itself as an argument, because arguments are visible in the
 * process list and shell history. Messages name the source, never the value.
 *
 * @param label what is asked for, e.g. {@code client secret}
 * @param flag the flag stem, e.g. {@code --client-secret} (its {@code -file}/{@code -env} forms)
 * @param file the file given, or null
 * @param variable the environment variable named, or null
 */
record SecretInput(String label, String flag, Path file, String variable) {

  /**
   * The value, from the file or variable, else (when {@code required}) from the prompt.
   *
   * @throws CliException USAGE when both sources are given, a source is unreadable or empty, or a
   *     required value has no source and no terminal is attached
   */
  Optional<String> read(CliEnvironment environment, boolean required) {
    if (file != null && variable != null) {
      throw new CliException(ExitCode.USAGE, "give only one of " + flag + "-file and " + flag
          + "-env");
    }
    if (file != null) {
      return Optional.of(nonEmpty(readFile(), flag + "-file " + file));
    }
    if (variable != null) {
      String value = environment.variables().get(variable);
      if (value == null) {
        throw new CliException(ExitCode.USAGE, "environment variable " + variable + " (from "
            + flag + "-env) is not set");
      }
      return Optional.of(nonEmpty(value, "environment variable " + variable));
    }
    if (!required) {
      return Optional.empty();
    }
    char[] typed = environment.prompt().read(label).orElseThrow(() ->
        new CliException(ExitCode.USAGE, "the " + label + " is required: no terminal to "
            + "prompt on, so pass " + flag + "-file FILE or " + flag + "-env NAME"));
    String value = new String(typed);
    java.util.Arrays.fill(typed, '\0');
    return Optional.of(nonEmpty(value, "the prompt"));
  }

  private String readFile() {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new CliException(ExitCode.USAGE, "cannot read " + flag + "-file " + file + " ("
          + e.getClass().getSimpleName() + ")");
    }
  }

  /** The value without the trailing line break an editor or {@code echo} adds. */
  private String nonEmpty(String value, String source) {
    String stripped = value.replaceAll("[\\r\\n]+$", "");
    if (stripped.isEmpty()) {
      throw new CliException(ExitCode.USAGE, "the " + label + " from " + source + " is empty");
    }
    return stripped;
  }
}
