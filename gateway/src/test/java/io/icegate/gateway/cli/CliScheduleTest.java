package io.icegate.gateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.gateway.cli.CliUpstreamWorld.Run;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 28 end to end on a running gateway: an overlay created with {@code --refresh-interval} is
 * reconciled by the gateway's own scheduler (nobody calls reconcile); {@code overlay schedule}
 * shows its state and lag, the integration's schedule route its effective plan, {@code /metrics}
 * its lag; pausing the overlay shows {@code paused}. The upstream is Iceberg's own REST catalog
 * code over s3proxy.
 */
class CliScheduleTest {
  private static CliUpstreamWorld world;

  @BeforeAll
  static void start() throws Exception {
    world = CliUpstreamWorld.start("cli-schedule-secret-41d0");
  }

  @AfterAll
  static void stop() throws Exception {
    world.close();
  }

  private static Run run(String... args) {
    return world.run(args);
  }

  @Test
  void theSchedulerRefreshesAnOverlayWithAnIntervalAndShowsItsLag() throws Exception {
    String integration = world.createIntegration("sched-up", world.upstream.uri().toString());
    run("catalog", "create", "sched-cat", "--warehouse", "file:/tmp/sched-cat").expect(0);
    JsonNode overlay = run("overlay", "create", "sched-ov", "--integration", "sched-up",
        "--catalog", "sched-cat", "--include", "sales", "--refresh-interval", "5s",
        "--retention", "P1D", "-o", "json").expect(0).json(); // one duration parser: 5s or PT5S
    assertThat(overlay.get("refreshInterval").asText()).isEqualTo("PT5S");

    JsonNode schedule = null;
    long deadline = System.nanoTime() + 90_000_000_000L;
    while (System.nanoTime() < deadline) {
      schedule = run("overlay", "schedule", "sched-ov", "-o", "json").expect(0).json();
      if (schedule.path("lastSuccessAt").isNumber()) {
        break;
      }
      Thread.sleep(200);
    }
    assertThat(schedule.path("lastSuccessAt").isNumber()).as(schedule.toString()).isTrue();
    assertThat(schedule.get("state").asText()).isIn("idle", "running");
    assertThat(schedule.get("lagMillis").asLong()).isNotNegative();
    assertThat(schedule.get("nextRunAt").asLong())
        .isGreaterThan(schedule.get("lastSuccessAt").asLong());
    assertThat(schedule.get("lastError").isNull()).isTrue();
    Run table = run("overlay", "schedule", "sched-ov").expect(0);
    assertThat(table.out()).contains("STATE", "LAG", "NEXT_RUN");
    // the lag short (3m48s), never ISO-8601 with fractions of seconds (PT3M48.423S)
    assertThat(table.out().lines().skip(1).findFirst().orElseThrow().split("\\s+")[1])
        .matches("\\d+ms|(\\d+[dhms])+");
    Run listed = run("overlay", "list").expect(0);
    assertThat(listed.out()).contains("REFRESH", "PAUSED");
    assertThat(listed.out().lines().filter(l -> l.contains("sched-ov")).findFirst()
        .orElseThrow()).containsPattern("\\s5s\\s+false\\s");
    Run integrationPlan = run("integration", "schedule", "sched-up").expect(0);
    assertThat(integrationPlan.out()).contains("INTERVAL", "RETRIES", "NEXT_RUN",
        overlay.get("id").asText());
    assertThat(integrationPlan.out().lines().skip(1).findFirst().orElseThrow())
        .startsWith("5s").contains("1d");
    assertThat(run("integration", "schedule", "sched-up", "-o", "json").expect(0).json()
        .get("interval").asText()).isEqualTo("PT5S");
    // a one-line summary saying what update changes
    assertThat(run("overlay", "update", "--help").expect(0).out().lines().map(String::strip))
        .contains("Change an overlay's name, selection, refresh interval, retention or pause.");

    String account = overlay.get("accountId").asText();
    HttpResponse<String> plan = world.gw.send("GET", "/admin/v1/accounts/" + account
        + "/integrations/" + integration + "/schedule", null);
    assertThat(plan.statusCode()).as(plan.body()).isEqualTo(200);
    JsonNode effective = CliUpstreamWorld.JSON.readTree(plan.body());
    assertThat(effective.get("interval").asText()).isEqualTo("PT5S");
    assertThat(effective.get("retention").asText()).isEqualTo("P1D"); // as sent, canonical
    assertThat(effective.get("includeNamespaces").toString()).isEqualTo("[[\"sales\"]]");
    assertThat(effective.get("overlays").toString()).contains(overlay.get("id").asText());
    assertThat(effective.get("paused").asBoolean()).isFalse();

    String metrics = world.gw.send("GET", "/metrics", null).body();
    assertThat(metrics).contains("icegate_overlay_refresh_lag_seconds{overlay=\""
        + overlay.get("id").asText() + "\"}", "icegate_refresh_rounds_total{outcome=\"succeeded\"}",
        "icegate_refresh_rounds_running", "icegate_refresh_round_duration_seconds_count",
        "icegate_refresh_integrations_backing_off", "icegate_refresh_overlays_backing_off 0");
    assertThat(world.gw.send("GET", "/admin/v1/accounts/" + account + "/catalogs", null).body())
        .contains("sched-cat");

    assertThat(run("overlay", "update", "sched-ov", "--retention", "P1W", "-o", "json")
        .expect(0).json().get("retention").asText()).isEqualTo("P7D");
    assertThat(run("overlay", "update", "sched-ov", "--retention", "1d", "-o", "json")
        .expect(0).json().get("retention").asText()).isEqualTo("P1D");
    run("overlay", "update", "sched-ov", "--pause").expect(0);
    assertThat(run("overlay", "schedule", "sched-ov", "-o", "json").expect(0).json()
        .get("state").asText()).isEqualTo("paused");
    JsonNode manual = run("overlay", "update", "sched-ov", "--resume", "--refresh-interval",
        "manual", "-o", "json").expect(0).json();
    assertThat(manual.get("refreshInterval").isNull()).isTrue();
    assertThat(manual.get("retention").asText()).isEqualTo("P1D");
    assertThat(run("overlay", "schedule", "sched-ov", "-o", "json").expect(0).json()
        .get("state").asText()).isEqualTo("manual");
    // a paused integration plans nothing: its INTERVAL says paused, not manual
    run("integration", "update", "sched-up", "--pause").expect(0);
    run("overlay", "update", "sched-ov", "--refresh-interval", "5s").expect(0);
    assertThat(run("integration", "schedule", "sched-up").expect(0).out().lines().skip(1)
        .findFirst().orElseThrow()).startsWith("paused ");
    assertThat(run("integration", "schedule", "sched-up", "-o", "json").expect(0).json()
        .get("paused").asBoolean()).isTrue();
  }
}
