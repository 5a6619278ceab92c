package io.icegate.gateway.ops;

import io.icegate.core.jobs.Schedules;
import io.icegate.overlay.jobs.SchedulerMetrics;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The scheduler's section of {@code /metrics} (issue 28): this process's rounds (running, ended
 * by outcome, time spent), and from the store, shared by every process, each scheduled Overlay's
 * refresh lag, the Integrations backing off and the Overlays backing off on their own. The store part is read at each scrape (one
 * transaction per account); a store failure leaves it out of that scrape.
 */
public final class RefreshMetrics implements Consumer<StringBuilder> {
  private final SchedulerMetrics rounds;
  private final Schedules schedules;

  public RefreshMetrics(SchedulerMetrics rounds, Schedules schedules) {
    this.rounds = Objects.requireNonNull(rounds, "rounds");
    this.schedules = Objects.requireNonNull(schedules, "schedules");
  }

  @Override
  public void accept(StringBuilder out) {
    gauge(out, "icegate_refresh_rounds_running", "Scheduled rounds running in this process.",
        rounds.running());
    out.append("# HELP icegate_refresh_rounds_total Scheduled rounds this process ended, by "
        + "outcome.\n# TYPE icegate_refresh_rounds_total counter\n");
    out.append("icegate_refresh_rounds_total{outcome=\"succeeded\"} ").append(rounds.succeeded())
        .append('\n');
    out.append("icegate_refresh_rounds_total{outcome=\"failed\"} ").append(rounds.failed())
        .append('\n');
    out.append("icegate_refresh_rounds_total{outcome=\"cancelled\"} ").append(rounds.cancelled())
        .append('\n');
    out.append("# HELP icegate_refresh_round_duration_seconds Time of the scheduled rounds this "
        + "process ended.\n# TYPE icegate_refresh_round_duration_seconds summary\n");
    out.append("icegate_refresh_round_duration_seconds_sum ").append(rounds.timedSeconds())
        .append('\n');
    out.append("icegate_refresh_round_duration_seconds_count ").append(rounds.timedRounds())
        .append('\n');
    Schedules.Overview overview;
    try {
      overview = schedules.overview();
    } catch (RuntimeException e) {
      return; // the store is unavailable: /readyz says so
    }
    gauge(out, "icegate_refresh_integrations_backing_off",
        "Integrations whose last round failed and whose backoff has not ended.",
        overview.backingOff());
    gauge(out, "icegate_refresh_overlays_backing_off",
        "Scheduled overlays whose own last round failed (not their upstream) and that await "
        + "their retry.", overview.overlaysBackingOff());
    out.append("# HELP icegate_overlay_refresh_lag_seconds Now minus the start of the last "
        + "successful round of each scheduled overlay.\n"
        + "# TYPE icegate_overlay_refresh_lag_seconds gauge\n");
    for (Map.Entry<String, Long> lag : overview.lags().entrySet()) {
      out.append("icegate_overlay_refresh_lag_seconds{overlay=\"").append(lag.getKey())
          .append("\"} ").append(lag.getValue() / 1000.0).append('\n');
    }
  }

  private static void gauge(StringBuilder out, String name, String help, long value) {
    out.append("# HELP ").append(name).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(name).append(" gauge\n");
    out.append(name).append(' ').append(value).append('\n');
  }
}
