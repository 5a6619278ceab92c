package io.icegate.cli.operation;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.cli.CliEnvironment;
import java.io.PrintWriter;

/**
 * How an operation's progress reaches stderr while the CLI waits: a bar redrawn in place on a
 * terminal, or one plain line per phase change where stderr is a pipe or a log file (so those
 * never receive carriage returns or escape sequences). Stdout is left to the final report.
 */
public sealed interface ProgressView permits ProgressView.TerminalBar, ProgressView.PhaseLines {

  /** Shows the state of {@code operation} (a polled operation body). */
  void show(JsonNode operation);

  /** Ends the display, leaving the cursor at the start of a fresh line. */
  void end();

  /** The view suited to {@code environment}'s stderr. */
  static ProgressView of(CliEnvironment environment) {
    if (environment.errTerminal()) {
      int columns = environment.variable("COLUMNS").map(ProgressView::columns).orElse(80);
      return new TerminalBar(environment.err(), columns);
    }
    return new PhaseLines(environment.err());
  }

  private static int columns(String value) {
    try {
      return Math.max(20, Integer.parseInt(value.trim()));
    } catch (NumberFormatException e) {
      return 80;
    }
  }

  /**
   * One line rewritten after a carriage return: the phase, a bar while publishing, the counts.
   * Shorter redraws are padded with spaces over the previous text rather than cleared with an
   * escape sequence, and the line is cut one column short of the width so it never wraps.
   */
  final class TerminalBar implements ProgressView {
    private static final int BAR = 24;
    private final PrintWriter err;
    private final int columns;
    private int drawn;

    TerminalBar(PrintWriter err, int columns) {
      this.err = err;
      this.columns = columns;
    }

    @Override
    public synchronized void show(JsonNode operation) {
      OperationProgress progress = OperationProgress.of(operation);
      StringBuilder line = new StringBuilder("[").append(progress.phase()).append("] ");
      progress.fraction().ifPresent(f -> {
        int filled = (int) Math.round(f * BAR);
        line.append('[').append("=".repeat(filled));
        if (filled < BAR) {
          line.append('>').append(" ".repeat(BAR - filled - 1));
        }
        line.append("] ");
      });
      line.append(progress.counts());
      String text = line.length() >= columns ? line.substring(0, columns - 1) : line.toString();
      err.print("\r" + text + " ".repeat(Math.max(0, drawn - text.length())));
      err.flush();
      drawn = text.length();
    }

    @Override
    public synchronized void end() {
      if (drawn > 0) {
        err.println();
        err.flush();
        drawn = 0;
      }
    }
  }

  /** A line {@code icegate: [phase] counts} each time the phase changes. */
  final class PhaseLines implements ProgressView {
    private final PrintWriter err;
    private String phase;

    PhaseLines(PrintWriter err) {
      this.err = err;
    }

    @Override
    public synchronized void show(JsonNode operation) {
      OperationProgress progress = OperationProgress.of(operation);
      if (!progress.phase().equals(phase)) {
        phase = progress.phase();
        err.println("icegate: " + progress.line());
        err.flush();
      }
    }

    @Override
    public void end() {
      // every line is already complete
    }
  }
}
