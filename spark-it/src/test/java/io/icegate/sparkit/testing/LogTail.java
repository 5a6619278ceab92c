package io.icegate.sparkit.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The last lines of a child process's log, for the message of a start or liveness failure. */
final class LogTail {
  private static final int LINES = 30;

  private LogTail() {}

  /** The log's last 30 lines (none when it does not exist yet). */
  static String of(Path log) {
    try {
      List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
      return String.join("\n", lines.subList(Math.max(0, lines.size() - LINES), lines.size()));
    } catch (IOException e) {
      return "(log unreadable: " + e.getMessage() + ")";
    }
  }
}
