package io.icegate.admin;

import static io.icegate.admin.AdminHttpMappingTest.assertProblem;
import static io.icegate.admin.testing.AdminServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.admin.testing.AdminServer;
import io.icegate.core.auth.TokenRole;
import io.icegate.core.model.Account;
import io.icegate.core.jobs.Backoff;
import io.icegate.core.jobs.SchedulerState;
import io.icegate.core.jobs.UpstreamJob;
import io.icegate.core.jobs.UpstreamJobs;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 28's demand members over real HTTP: an Overlay's {@code refreshInterval}, {@code
 * retention} and {@code paused}, an Integration's {@code paused}; If-Match as for every PATCH;
 * bad durations a 400 naming the member; only a pause change advances the configuration
 * generation; a reconcile on a paused Integration is 409 INTEGRATION_PAUSED.
 */
class RefreshDemandRoutesTest {
  private static AdminServer server;
  private static String base;
  private static String integration;
  private static String catalog;

  @BeforeAll
  static void start() {
    server = AdminServer.start();
    String account = server.services.repositories().accounts().create(new Account("acme")).id();
    server.grant(AdminServer.ADMIN, account, TokenRole.ADMIN, true);
    base = "/admin/v1/accounts/" + account;
    integration = id(server.send("POST", base + "/integrations",
        "{\"displayName\":\"up\",\"type\":\"ICEBERG_REST\","
            + "\"uri\":\"https://unreachable.example.com/v1\","
            + "\"authentication\":{\"type\":\"bearer\",\"token\":\"tok\"}}"));
    catalog = id(server.send("POST", base + "/catalogs",
        "{\"name\":\"c\",\"warehouse\":\"file:/tmp/demand\"}"));
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static String id(HttpResponse<String> created) {
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    return json(created).get("id").asText();
  }

  private static String overlay(String name, String demand) {
    return "{\"displayName\":\"" + name + "\",\"integrationId\":\"" + integration
        + "\",\"catalogId\":\"" + catalog + "\"" + demand + "}";
  }

  @Test
  void anOverlayCarriesItsDemandNormalizedAndWithoutItIsManual() {
    JsonNode manual = json(server.send("POST", base + "/overlays", overlay("manual", "")));
    assertThat(manual.get("refreshInterval").isNull()).isTrue();
    assertThat(manual.get("retention").isNull()).isTrue();
    assertThat(manual.get("paused").asBoolean()).isFalse();

    JsonNode scheduled = json(server.send("POST", base + "/overlays", overlay("scheduled",
        ",\"refreshInterval\":\"PT300S\",\"retention\":\"P7D\",\"paused\":true")));
    assertThat(scheduled.get("refreshInterval").asText()).isEqualTo("PT5M");
    assertThat(scheduled.get("retention").asText()).isEqualTo("P7D");
    assertThat(scheduled.get("paused").asBoolean()).isTrue();
  }

  /**
   * One canonical form per length, answered as sent where the client used it: whole days as
   * days, the rest in hours, minutes and seconds; weeks are exact (7 days) and accepted.
   */
  @Test
  void durationsAreAnsweredInOneCanonicalFormAndWeeksAreExact() {
    String[][] cases = {{"P7D", "P7D"}, {"P1W", "P7D"}, {"P2W", "P14D"}, {"PT168H", "P7D"},
        {"PT36H", "P1DT12H"}, {"p1dt30m", "P1DT30M"}, {"PT90M", "PT1H30M"}};
    for (String[] c : cases) {
      JsonNode created = json(server.send("POST", base + "/overlays", overlay("d-" + c[0],
          ",\"refreshInterval\":\"" + c[0] + "\",\"retention\":\"" + c[0] + "\"")));
      assertThat(created.get("refreshInterval").asText()).as(c[0]).isEqualTo(c[1]);
      assertThat(created.get("retention").asText()).as(c[0]).isEqualTo(c[1]);
    }
  }

  /** Years and months have no fixed length: 400 naming the member and saying why. */
  @Test
  void calendarDurationsAreRefusedNamingTheMemberAndWhy() {
    for (String calendar : java.util.List.of("P1M", "P1Y", "P1Y2M", "P1MT5M")) {
      for (String member : java.util.List.of("refreshInterval", "retention")) {
        JsonNode refused = assertProblem(server.send("POST", base + "/overlays",
            overlay("cal", ",\"" + member + "\":\"" + calendar + "\"")), 400,
            "INVALID_ARGUMENT");
        assertThat(refused.get("detail").asText()).as(calendar)
            .contains(member, "calendar", "days");
      }
    }
  }

  /**
   * {@code "paused": null} in a PATCH is refused (the member is a boolean: null is neither a
   * pause nor a resume) and changes nothing, on an Overlay and on an Integration; only a real
   * pause change advances the configuration generation.
   */
  @Test
  void aNullPauseIsRefusedAndChangesNothing() {
    HttpResponse<String> created = server.send("POST", base + "/overlays",
        overlay("null-pause", ",\"refreshInterval\":\"PT1M\""));
    String overlayPath = base + "/overlays/" + id(created);
    String integrationPath = base + "/integrations/" + integration;
    for (String path : java.util.List.of(overlayPath, integrationPath)) {
      HttpResponse<String> read = server.send("GET", path, null);
      JsonNode refused = assertProblem(server.send("PATCH", path, "{\"paused\":null}",
          "If-Match", read.headers().firstValue("ETag").orElseThrow()), 400,
          "INVALID_ARGUMENT");
      assertThat(refused.get("detail").asText()).contains("paused");
      JsonNode after = json(server.send("GET", path, null));
      assertThat(after.get("configurationGeneration").asLong())
          .isEqualTo(json(read).get("configurationGeneration").asLong());
      assertThat(after.get("generation").asLong())
          .isEqualTo(json(read).get("generation").asLong());
      assertThat(after.get("paused").asBoolean()).isFalse();
    }
    // and on create, with the same message, creating nothing
    HttpResponse<String> patch = server.send("PATCH", overlayPath, "{\"paused\":null}",
        "If-Match", "*");
    JsonNode onCreate = assertProblem(server.send("POST", base + "/overlays",
        overlay("null-pause-create", ",\"paused\":null")), 400, "INVALID_ARGUMENT");
    assertThat(onCreate.get("detail").asText()).isEqualTo(json(patch).get("detail").asText());
    assertThat(server.send("GET", base + "/overlays", null).body())
        .doesNotContain("null-pause-create");
  }

  /**
   * A PATCH that changes nothing ({@code {}}, or every member as it is) writes nothing: 200 with
   * the resource as it was, same generation and ETag, on an Overlay and on an Integration.
   */
  @Test
  void aPatchThatChangesNothingWritesNothing() {
    HttpResponse<String> created = server.send("POST", base + "/overlays",
        overlay("no-op", ",\"refreshInterval\":\"PT1M\""));
    String overlayPath = base + "/overlays/" + id(created);
    String integrationPath = base + "/integrations/" + integration;
    java.util.Map<String, java.util.List<String>> patches = java.util.Map.of(
        overlayPath, java.util.List.of("{}", "{\"refreshInterval\":\"PT60S\",\"paused\":false,"
            + "\"displayName\":\"no-op\"}"),
        integrationPath, java.util.List.of("{}", "{\"paused\":false,\"displayName\":\"up\"}"));
    patches.forEach((path, bodies) -> {
      for (String body : bodies) {
        HttpResponse<String> read = server.send("GET", path, null);
        String etag = read.headers().firstValue("ETag").orElseThrow();
        HttpResponse<String> patched = server.send("PATCH", path, body, "If-Match", etag);
        assertThat(patched.statusCode()).as(body + " " + patched.body()).isEqualTo(200);
        assertThat(patched.headers().firstValue("ETag")).as(body).contains(etag);
        assertThat(json(patched).get("generation").asLong()).as(body)
            .isEqualTo(json(read).get("generation").asLong());
        assertThat(json(patched).get("updatedAt")).as(body).isEqualTo(json(read).get("updatedAt"));
        // the precondition still counts: a stale ETag is refused even for a no-op
        String stale = etag.replaceAll("/(\\d+)\"$", "/0\"");
        assertProblem(server.send("PATCH", path, body, "If-Match", stale), 412,
            "GENERATION_MISMATCH");
      }
    });
  }

  @Test
  void aBadDurationIsA400NamingTheMember() {
    JsonNode notDuration = assertProblem(server.send("POST", base + "/overlays",
        overlay("bad1", ",\"refreshInterval\":\"every minute\"")), 400, "INVALID_ARGUMENT");
    assertThat(notDuration.get("detail").asText()).contains("refreshInterval");
    JsonNode tooShort = assertProblem(server.send("POST", base + "/overlays",
        overlay("bad2", ",\"refreshInterval\":\"PT1S\"")), 400, "INVALID_ARGUMENT");
    assertThat(tooShort.get("detail").asText()).contains("refreshInterval", "PT5S");
    JsonNode retention = assertProblem(server.send("POST", base + "/overlays",
        overlay("bad3", ",\"retention\":\"-P1D\"")), 400, "INVALID_ARGUMENT");
    assertThat(retention.get("detail").asText()).contains("retention");
    JsonNode months = assertProblem(server.send("POST", base + "/overlays",
        overlay("bad4", ",\"retention\":\"P1M\"")), 400, "INVALID_ARGUMENT");
    assertThat(months.get("detail").asText()).contains("retention", "calendar");
    assertProblem(server.send("POST", base + "/overlays",
        overlay("bad5", ",\"paused\":\"yes\"")), 400, "MALFORMED_REQUEST");
    // a negative part is refused even when the total is positive (P-1DT48H is one day), and a
    // zero total too: a 400 naming the member, on create and on PATCH
    String patched = base + "/overlays/" + id(server.send("POST", base + "/overlays",
        overlay("negative-parts", ",\"refreshInterval\":\"PT1M\"")));
    for (String riddle : java.util.List.of("P-1DT48H", "PT2H-30M", "PT0S")) {
      for (String member : java.util.List.of("refreshInterval", "retention")) {
        JsonNode created = assertProblem(server.send("POST", base + "/overlays",
            overlay("neg", ",\"" + member + "\":\"" + riddle + "\"")), 400,
            "INVALID_ARGUMENT");
        assertThat(created.get("detail").asText()).as(riddle).contains(member, riddle);
        JsonNode patch = assertProblem(server.send("PATCH", patched,
            "{\"" + member + "\":\"" + riddle + "\"}", "If-Match", "*"), 400,
            "INVALID_ARGUMENT");
        assertThat(patch.get("detail").asText()).as(riddle).contains(member);
      }
    }
    // beyond ten years schedule arithmetic would overflow: refused, never stored
    for (String huge : java.util.List.of("PT9223372036854775807S", "P106751991167300D",
        "P3661D")) {
      JsonNode interval = assertProblem(server.send("POST", base + "/overlays",
          overlay("bad6", ",\"refreshInterval\":\"" + huge + "\"")), 400, "INVALID_ARGUMENT");
      assertThat(interval.get("detail").asText()).contains("refreshInterval", "at most");
      JsonNode kept = assertProblem(server.send("POST", base + "/overlays",
          overlay("bad7", ",\"retention\":\"" + huge + "\"")), 400, "INVALID_ARGUMENT");
      assertThat(kept.get("detail").asText()).contains("retention", "at most");
    }
  }

  @Test
  void onlyAPauseChangeAdvancesTheConfigurationGeneration() {
    HttpResponse<String> created = server.send("POST", base + "/overlays", overlay("patched",
        ",\"refreshInterval\":\"PT1M\""));
    String path = base + "/overlays/" + id(created);
    String etag = created.headers().firstValue("ETag").orElseThrow();
    long configuration = json(created).get("configurationGeneration").asLong();

    assertProblem(server.send("PATCH", path, "{\"refreshInterval\":\"PT2M\"}"), 428,
        "PRECONDITION_REQUIRED");
    HttpResponse<String> interval = server.send("PATCH", path,
        "{\"refreshInterval\":\"PT2M\",\"retention\":\"PT1H\"}", "If-Match", etag);
    assertThat(interval.statusCode()).as(interval.body()).isEqualTo(200);
    assertThat(json(interval).get("refreshInterval").asText()).isEqualTo("PT2M");
    assertThat(json(interval).get("configurationGeneration").asLong()).isEqualTo(configuration);
    assertProblem(server.send("PATCH", path, "{\"paused\":true}", "If-Match", etag), 412,
        "GENERATION_MISMATCH");

    etag = interval.headers().firstValue("ETag").orElseThrow();
    HttpResponse<String> paused = server.send("PATCH", path, "{\"paused\":true}", "If-Match",
        etag);
    assertThat(json(paused).get("paused").asBoolean()).isTrue();
    assertThat(json(paused).get("refreshInterval").asText()).isEqualTo("PT2M");
    assertThat(json(paused).get("configurationGeneration").asLong())
        .isGreaterThan(configuration);

    // an explicit null removes the interval (manual only); an absent member keeps it
    etag = paused.headers().firstValue("ETag").orElseThrow();
    HttpResponse<String> manual = server.send("PATCH", path, "{\"refreshInterval\":null}",
        "If-Match", etag);
    assertThat(json(manual).get("refreshInterval").isNull()).isTrue();
    assertThat(json(manual).get("retention").asText()).isEqualTo("PT1H");
    assertThat(json(manual).get("paused").asBoolean()).isTrue();
    etag = manual.headers().firstValue("ETag").orElseThrow();
    JsonNode bad = assertProblem(server.send("PATCH", path, "{\"retention\":\"soon\"}",
        "If-Match", etag), 400, "INVALID_ARGUMENT");
    assertThat(bad.get("detail").asText()).contains("retention");
  }

  /**
   * The integration's schedule route answers the rounds the scheduler plans: an overlay backing
   * off on its own (a conflict in its catalog) sits rounds out, so its shorter interval is
   * neither the integration's interval nor its next run; it is listed in {@code retries} with
   * its retry time, which is also its own {@code nextRunAt}.
   */
  @Test
  void theIntegrationScheduleLeavesOverlaysBackingOffOnTheirOwnToTheirRetries() {
    String upstream = id(server.send("POST", base + "/integrations",
        "{\"displayName\":\"sched\",\"type\":\"ICEBERG_REST\","
            + "\"uri\":\"https://unreachable.example.com/v1\","
            + "\"authentication\":{\"type\":\"bearer\",\"token\":\"tok\"}}"));
    String demand = "\"integrationId\":\"" + upstream + "\",\"catalogId\":\"" + catalog
        + "\",\"refreshInterval\":";
    String healthy = id(server.send("POST", base + "/overlays",
        "{\"displayName\":\"healthy\"," + demand + "\"PT1M\"}"));
    String failing = id(server.send("POST", base + "/overlays",
        "{\"displayName\":\"failing\"," + demand + "\"PT5S\"}"));
    String account = base.substring(base.lastIndexOf('/') + 1);
    UpstreamJobs jobs = new UpstreamJobs(server.services.repositories(), Clock.systemUTC(),
        Duration.ofSeconds(30), new Backoff(Duration.ofMinutes(10), Duration.ofHours(1)));
    UpstreamJob round = jobs.plan(account, upstream, o -> true, "test").orElseThrow();
    assertThat(jobs.end(round, Map.of(
        healthy, new SchedulerState.OverlayRound(round.jobId(), "SUCCEEDED", 0, null),
        failing, new SchedulerState.OverlayRound(round.jobId(), "FAILED", 0,
            new SchedulerState.Problem("RECONCILE_CONFLICT", "in the way"))), null)).isTrue();
    long start = round.lease().acquiredAtMillis();
    long retry = jobs.overlayRound(account, upstream, failing).orElseThrow()
        .nextAttemptAtMillis();

    JsonNode plan = json(server.send("GET", base + "/integrations/" + upstream + "/schedule",
        null));
    assertThat(plan.get("interval").asText()).isEqualTo("PT1M");
    assertThat(plan.get("overlays").toString()).isEqualTo("[\"" + healthy + "\"]");
    assertThat(plan.get("retries").get(failing).asLong()).isEqualTo(retry);
    assertThat(plan.get("nextRunAt").asLong()).isEqualTo(start + 60_000);
    JsonNode own = json(server.send("GET", base + "/overlays/" + failing + "/schedule", null));
    assertThat(own.get("state").asText()).isEqualTo("backoff");
    assertThat(own.get("nextRunAt").asLong()).isEqualTo(retry);
    assertThat(json(server.send("GET", base + "/overlays/" + healthy + "/schedule", null))
        .get("nextRunAt").asLong()).isEqualTo(start + 60_000);
  }

  @Test
  void aPausedIntegrationRefusesReconcileAndResumes() {
    String overlay = id(server.send("POST", base + "/overlays", overlay("on-paused", "")));
    String path = base + "/integrations/" + integration;
    HttpResponse<String> read = server.send("GET", path, null);
    long configuration = json(read).get("configurationGeneration").asLong();
    HttpResponse<String> paused = server.send("PATCH", path, "{\"paused\":true}", "If-Match",
        read.headers().firstValue("ETag").orElseThrow());
    assertThat(paused.statusCode()).as(paused.body()).isEqualTo(200);
    assertThat(json(paused).get("paused").asBoolean()).isTrue();
    assertThat(json(paused).get("configurationGeneration").asLong())
        .isGreaterThan(configuration);
    try {
      assertProblem(server.send("POST", base + "/overlays/" + overlay + "/reconcile", null),
          409, "INTEGRATION_PAUSED");
      assertProblem(server.send("POST", base + "/overlays/" + overlay + "/reconcile", null,
          "Prefer", "respond-async"), 409, "INTEGRATION_PAUSED");
    } finally {
      HttpResponse<String> resumed = server.send("PATCH", path, "{\"paused\":false}",
          "If-Match", paused.headers().firstValue("ETag").orElseThrow());
      assertThat(json(resumed).get("paused").asBoolean()).isFalse();
    }
  }
}
