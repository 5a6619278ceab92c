package io.icegate.cli.operation;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.cli.CliException;
import io.icegate.cli.ExitCode;
import io.icegate.cli.http.AdminClient;
import java.io.PrintWriter;
import java.time.Duration;

/**
 * Waits for an asynchronous operation ({@code GET .../operations/{id}}, docs/admin-api.md) to leave
 * {@code RUNNING}, showing each polled state on a {@link ProgressView}.
 *
 * <p>Waiting is only the CLI's side: the server runs the operation whatever happens to this
 * process. So Ctrl-C (SIGINT, or a SIGTERM) while waiting ends the CLI with the shell's usual
 * status 130/143 and, from a JVM shutdown hook, prints how to follow the operation instead of
 * cancelling anything. The hook exists only while {@link #await} runs.
 */
public final class OperationWatch {
  private final AdminClient client;
  private final String path;
  private final Duration interval;
  private final ProgressView view;
  private final PrintWriter err;
  private final String follow;

  /**
   * @param path the operation's route: {@code /admin/v1/accounts/A/operations/ID}
   * @param interval time between polls (positive)
   * @param follow the command that shows the operation later: {@code icegate operation get ID}
   */
  public OperationWatch(AdminClient client, String path, Duration interval, ProgressView view,
      PrintWriter err, String follow) {
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("poll interval must be positive: " + interval);
    }
    this.client = client;
    this.path = path;
    this.interval = interval;
    this.view = view;
    this.err = err;
    this.follow = follow;
  }

  /**
   * Polls from {@code first} (the 202 body) until the state is {@code SUCCEEDED} or {@code
   * FAILED}.
   *
   * @return the final operation body
   * @throws CliException a failed poll (its exit code, with how to follow the operation), or
   *     {@link ExitCode#INTERRUPTED} when this thread is interrupted
   */
  public JsonNode await(JsonNode first) {
    Thread hint = new Thread(() -> {
      view.end();
      err.println("icegate: " + stoppedWaiting());
      err.flush();
    }, "icegate-operation-hint");
    Runtime.getRuntime().addShutdownHook(hint);
    try {
      JsonNode operation = first;
      view.show(operation);
      while (running(operation)) {
        Thread.sleep(interval.toMillis());
        try {
          operation = client.get(path).body();
        } catch (CliException e) {
          throw new CliException(e.exitCode(), e.getMessage() + System.lineSeparator()
              + "  the operation may still be running; follow it with: " + follow,
              e.problemCode().orElse(null));
        }
        view.show(operation);
      }
      return operation;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliException(ExitCode.INTERRUPTED, stoppedWaiting());
    } finally {
      view.end();
      try {
        Runtime.getRuntime().removeShutdownHook(hint);
      } catch (IllegalStateException e) {
        // the JVM is already shutting down (Ctrl-C): the hook prints the hint
      }
    }
  }

  /** Whether an operation body is still {@code RUNNING}. */
  public static boolean running(JsonNode operation) {
    return "RUNNING".equals(operation.path("state").asText());
  }

  private String stoppedWaiting() {
    return "stopped waiting; the operation keeps running on the server. Follow it with: "
        + follow;
  }
}
