package io.icegate.gateway.reconcile;

import static io.icegate.gateway.testing.HttpJson.created;
import static io.icegate.gateway.testing.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.core.model.Namespace;
import io.icegate.core.model.Table;
import io.icegate.core.overlay.OperationRecords;
import io.icegate.core.repo.Repositories;
import io.icegate.gateway.testing.GatewayFixture;
import io.icegate.overlay.store.OverlayStore;
import io.icegate.overlay.store.testing.ContributionInvariants;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The reconcile routes of a running gateway over HTTP against a real upstream Iceberg REST
 * catalog on loopback: synchronous report, asynchronous operation polled to its report, 409 with
 * every conflict listed, 404 for an unknown operation.
 */
class ReconcileApiTest {

  private static ObjectStoreFixture objects;
  private static IcebergRestFixture upstream;
  private static GatewayFixture gw;
  private static String base;
  private static String integration;

  @BeforeAll
  static void start() throws Exception {
    objects = ObjectStoreFixture.startS3Proxy();
    upstream = IcebergRestFixture.start(objects).seed();
    gw = GatewayFixture.start();
    String account = json(gw.send("POST", "/admin/v1/accounts", "{\"name\":\"rec\"}")).get("id")
        .asText();
    base = "/admin/v1/accounts/" + account;
    integration = created(gw.send("POST", base + "/integrations", "{\"displayName\":\"up\","
        + "\"type\":\"ICEBERG_REST\",\"uri\":\"" + upstream.uri() + "\","
        + "\"authentication\":{\"type\":\"bearer\",\"token\":\"tok\"}}")).get("id").asText();
  }

  @AfterAll
  static void stop() throws Exception {
    ContributionInvariants.checker(gw.gateway().store()).assertClean();
    gw.close();
    upstream.close();
    objects.close();
  }

  private static String catalog(String name) {
    return created(gw.send("POST", base + "/catalogs", "{\"name\":\"" + name
        + "\",\"warehouse\":\"file:/tmp/" + name + "\"}")).get("id").asText();
  }

  private static String overlay(String name, String catalog, String include) {
    return created(gw.send("POST", base + "/overlays", "{\"displayName\":\"" + name
        + "\",\"integrationId\":\"" + integration + "\",\"catalogId\":\"" + catalog
        + "\",\"includeNamespaces\":" + include + "}")).get("id").asText();
  }

  @Test
  void synchronousReconcileAnswersTheReport() {
    String overlay = overlay("sync", catalog("sync"), "[[\"sales\"]]");
    HttpResponse<String> r = gw.send("POST", base + "/overlays/" + overlay + "/reconcile", null);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode report = json(r);
    assertThat(report.get("created").asInt()).isEqualTo(3);
    assertThat(report.get("namespacesCreated").asInt()).isEqualTo(2);
    assertThat(report.get("overlayId").asText()).isEqualTo(overlay);

    assertThat(report.get("runGeneration").asInt()).isEqualTo(1);

    // An unchanged synchronous re-run commits no write (not even its run record) and reports the
    // generation of the last run that recorded one.
    long writes = gw.gateway().store().stats().committedWrites();
    JsonNode again = json(gw.send("POST", base + "/overlays/" + overlay + "/reconcile", null));
    assertThat(again.get("unchanged").asInt()).isEqualTo(3);
    assertThat(again.get("runGeneration").asInt()).isEqualTo(1);
    assertThat(gw.gateway().store().stats().committedWrites()).isEqualTo(writes);
  }

  @Test
  void reconcileCapturesAndTheCaptureRouteCapturesOnlyWhatMovedUpstream() {
    org.apache.iceberg.catalog.TableIdentifier id =
        org.apache.iceberg.catalog.TableIdentifier.of("capt", "t");
    upstream.backingCatalog().createNamespace(org.apache.iceberg.catalog.Namespace.of("capt"));
    upstream.backingCatalog().createTable(id, IcebergRestFixture.ORDERS_SCHEMA);
    String overlay = overlay("capt", catalog("capt"), "[[\"capt\"]]");
    JsonNode report = json(gw.send("POST", base + "/overlays/" + overlay + "/reconcile", null));
    assertThat(report.get("captured").asInt()).as(report.toString()).isEqualTo(1);

    HttpResponse<String> r = gw.send("POST", base + "/overlays/" + overlay + "/capture", null);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(json(r).get("captured").asInt()).isZero();
    assertThat(json(r).get("unchanged").asInt()).isEqualTo(1);

    upstream.backingCatalog().loadTable(id).updateProperties().set("k", "v").commit();
    JsonNode moved = json(gw.send("POST", base + "/overlays/" + overlay + "/capture", null));
    assertThat(moved.get("captured").asInt()).as(moved.toString()).isEqualTo(1);
    assertThat(moved.get("failed").asInt()).isZero();
  }

  @Test
  void asynchronousReconcileAnswers202AndAnOperationThatEndsWithTheReport() throws Exception {
    String overlay = overlay("async", catalog("async"), "[]");
    HttpResponse<String> r = gw.send("POST", base + "/overlays/" + overlay + "/reconcile", null,
        "Prefer", "respond-async");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
    JsonNode operation = json(r);
    String location = r.headers().firstValue("Location").orElseThrow();
    assertThat(location).isEqualTo(base + "/operations/" + operation.get("id").asText());
    assertThat(operation.get("overlayId").asText()).isEqualTo(overlay);
    assertThat(operation.get("state").asText()).isEqualTo("RUNNING");
    assertThat(operation.get("counts").has("created")).isTrue();

    JsonNode polled = operation;
    for (int i = 0; i < 200 && polled.get("state").asText().equals("RUNNING"); i++) {
      Thread.sleep(50);
      polled = json(gw.send("GET", location, null));
    }
    assertThat(polled.get("state").asText()).as(polled.toString()).isEqualTo("SUCCEEDED");
    assertThat(polled.get("phase").asText()).isEqualTo("DONE");
    assertThat(polled.get("report").get("created").asInt()).isEqualTo(4);
    assertThat(polled.get("counts").get("created").asInt()).isEqualTo(4);
  }

  @Test
  void conflictsAre409ListingEachOne() {
    String catalog = catalog("conflict");
    // Local tables at two selected paths, written as a client of the gateway would own them.
    String account = base.substring(base.lastIndexOf('/') + 1);
    Repositories repos = OverlayStore.repositories(gw.gateway().store(), Clock.systemUTC());
    for (List<String> ns : List.of(List.of("sales"), List.of("Marketing"))) {
      repos.namespaces(account).create(new Namespace(catalog, ns, Map.of()));
    }
    repos.tables(account).create(new Table(catalog, List.of("sales"), "orders",
        "file:/tmp/conflict/orders/metadata.json", Map.of()));
    repos.tables(account).create(new Table(catalog, List.of("Marketing"), "Campaigns",
        "file:/tmp/conflict/c/metadata.json", Map.of()));
    String overlay = overlay("conflict", catalog, "[]");

    HttpResponse<String> r = gw.send("POST", base + "/overlays/" + overlay + "/reconcile", null);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(409);
    assertThat(r.headers().firstValue("Content-Type").orElse(""))
        .startsWith("application/problem+json");
    JsonNode problem = json(r);
    assertThat(problem.get("code").asText()).isEqualTo("RECONCILE_CONFLICT");
    assertThat(problem.get("details")).hasSize(2);
    assertThat(problem.get("details").toString()).contains("sales.orders")
        .contains("Marketing.Campaigns");
  }

  /**
   * Issue 21 over HTTP: a run that would retire every relation of its Overlay is 409
   * MASS_RETIREMENT_UNCONFIRMED naming the counts, {@code ?confirmRetirement=true} lets it
   * through, another value is 400; a table the upstream refuses to load is held (report member
   * {@code held}) and its admin view says {@code held: {code, message, since}}.
   */
  @Test
  void massRetirementNeedsConfirmationAndAHeldTableSaysSoInItsView() throws Exception {
    org.apache.iceberg.jdbc.JdbcCatalog up = upstream.backingCatalog();
    up.createNamespace(org.apache.iceberg.catalog.Namespace.of("churn"));
    up.createNamespace(org.apache.iceberg.catalog.Namespace.of("churn_gone"));
    var kept = org.apache.iceberg.catalog.TableIdentifier.of("churn", "kept");
    var gone = org.apache.iceberg.catalog.TableIdentifier.of("churn_gone", "gone");
    up.createTable(kept, IcebergRestFixture.ORDERS_SCHEMA);
    up.createTable(gone, IcebergRestFixture.ORDERS_SCHEMA);
    String catalog = catalog("churn");
    String overlay = overlay("churn", catalog, "[[\"churn\"],[\"churn_gone\"]]");
    String reconcile = base + "/overlays/" + overlay + "/reconcile";
    JsonNode first = json(gw.send("POST", reconcile, null));
    assertThat(first.get("held")).isEmpty();

    // the upstream refuses to load churn.kept: held, its table kept as it was
    upstream.loadFaults().refuse("churn", "kept", 403);
    up.dropTable(gone, false);
    HttpResponse<String> refused = gw.send("POST", reconcile, null);
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
    JsonNode problem = json(refused);
    assertThat(problem.get("code").asText()).isEqualTo("MASS_RETIREMENT_UNCONFIRMED");
    assertThat(problem.get("details").toString())
        .contains("all 1 relation(s) under include path churn_gone would be retired");
    assertThat(gw.send("POST", reconcile + "?confirmRetirement=maybe", null).statusCode())
        .isEqualTo(400);

    HttpResponse<String> confirmed = gw.send("POST", reconcile + "?confirmRetirement=true", null);
    assertThat(confirmed.statusCode()).as(confirmed.body()).isEqualTo(200);
    JsonNode report = json(confirmed);
    assertThat(report.get("retired").asInt()).isEqualTo(1);
    assertThat(report.get("held")).singleElement().satisfies(held -> {
      assertThat(held.get("kind").asText()).isEqualTo("table");
      assertThat(held.get("path").toString()).isEqualTo("[\"churn\",\"kept\"]");
      assertThat(held.get("code").asText()).isEqualTo("UPSTREAM_FAILED");
    });
    JsonNode tables = json(gw.send("GET", base + "/catalogs/" + catalog
        + "/tables?namespace=churn&name=kept", null));
    JsonNode held = tables.get("items").get(0).get("held");
    assertThat(held.get("code").asText()).isEqualTo("UPSTREAM_FAILED");
    assertThat(held.get("message").asText()).contains("churn.kept");
    upstream.loadFaults().refuse("churn", "kept", 0);
    assertThat(held.hasNonNull("since")).isTrue();
  }

  /**
   * An operation stored RUNNING an hour ago and never stored again (its process was killed) is
   * answered FAILED with RECONCILE_INTERRUPTED, and that answer is stored.
   */
  @Test
  void anOperationWhoseProcessDiedIsAnsweredInterrupted() {
    String account = base.substring(base.lastIndexOf('/') + 1);
    long anHourAgo = System.currentTimeMillis() - 3_600_000;
    OperationRecords records = new OperationRecords(gw.gateway().store());
    records.put(account, "killed", Map.of("id", "killed", "overlayId", "ov", "state", "RUNNING",
        "phase", "DISCOVERY", "counts", Map.of(), "startedAtMillis", anHourAgo,
        "updatedAtMillis", anHourAgo));
    HttpResponse<String> r = gw.send("GET", base + "/operations/killed", null);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode operation = json(r);
    assertThat(operation.get("state").asText()).isEqualTo("FAILED");
    assertThat(operation.at("/problem/code").asText()).isEqualTo("RECONCILE_INTERRUPTED");
    assertThat(operation.at("/problem/status").asInt()).isEqualTo(500);
    assertThat(records.get(account, "killed").orElseThrow().get("state").asText())
        .isEqualTo("FAILED");
  }

  @Test
  void anUnreachableUpstreamIsNamedByHostAndPortInTheAnswerAndTheLastError() throws Exception {
    int closed;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      closed = socket.getLocalPort(); // nothing listens there once it is closed
    }
    String down = created(gw.send("POST", base + "/integrations", "{\"displayName\":\"down\","
        + "\"type\":\"ICEBERG_REST\",\"uri\":\"http://127.0.0.1:" + closed + "/v1\","
        + "\"authentication\":{\"type\":\"bearer\",\"token\":\"tok\"}}")).get("id").asText();
    String overlay = created(gw.send("POST", base + "/overlays", "{\"displayName\":\"down\","
        + "\"integrationId\":\"" + down + "\",\"catalogId\":\"" + catalog("down")
        + "\",\"includeNamespaces\":[[\"sales\"]],\"refreshInterval\":\"PT5S\"}"))
        .get("id").asText();
    String endpoint = "127.0.0.1:" + closed;

    HttpResponse<String> r = gw.send("POST", base + "/overlays/" + overlay + "/reconcile", null);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(503);
    assertThat(json(r).get("code").asText()).isEqualTo("UPSTREAM_UNAVAILABLE");
    assertThat(json(r).get("detail").asText()).contains("cannot reach the catalog at " + endpoint);

    // the scheduler's round fails the same way and records it as the Overlay's lastError
    JsonNode lastError = null;
    for (long end = System.nanoTime() + 30_000_000_000L; System.nanoTime() < end; ) {
      lastError = json(gw.send("GET", base + "/overlays/" + overlay + "/schedule", null))
          .path("lastError");
      if (lastError.isObject()) {
        break;
      }
      Thread.sleep(200);
    }
    assertThat(lastError.isObject()).as("no lastError within 30 s").isTrue();
    assertThat(lastError.get("detail").asText()).contains(endpoint).doesNotContain("/v1");
    assertThat(gw.send("DELETE", base + "/overlays/" + overlay, null).statusCode()).isEqualTo(204);
  }

  @Test
  void anUnknownOperationIs404() {
    HttpResponse<String> r = gw.send("GET", base + "/operations/nope", null);
    assertThat(r.statusCode()).isEqualTo(404);
    assertThat(json(r).get("code").asText()).isEqualTo("NOT_FOUND");
  }
}
