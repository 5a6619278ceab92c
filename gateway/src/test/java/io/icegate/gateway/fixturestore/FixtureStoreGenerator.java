package io.icegate.gateway.fixturestore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.icegate.access.unity.fixture.UnityCatalogFixture;
import io.icegate.core.credential.MasterKey;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.KvStoreStats;
import io.icegate.gateway.testing.GatewayFixture;
import io.icegate.storage.sqlite.SqliteKvStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * Writes the stored-bytes fixture ({@code src/test/resources/fixture-store}, see its README): run
 * on demand only, at the commit whose stored bytes the fixture is to keep, with
 * {@code -Dtest=FixtureStoreGenerator -Dicegate.fixture-store.out=DIR} (the name does not end in
 * {@code Test}, so ordinary builds do not run it).
 *
 * <p>A real gateway on a new SQLite data dir (with a fixed master key) is given, over its admin API
 * and iceberg-core's REST client: account {@value FixtureStore#ACCOUNT} with an admin and a reader
 * token; Catalog {@value FixtureStore#LAKEHOUSE} (an {@code s3://} warehouse with stored storage
 * keys) holding native namespaces, tables with snapshots and a view of two versions; Catalog
 * {@value FixtureStore#FEDERATED} holding a native namespace {@code sales}; one Integration of each
 * type (Iceberg REST with a bearer token, Unity with OAuth client credentials, Delta Sharing with a
 * recipient token, so the CredentialStore holds encrypted secrets) and an Overlay over each, all
 * reconciled (one asynchronously, leaving an operation record): managed tables and views, captures,
 * validation records (clean and failed ones, one with a visibility override), namespace claims (of
 * the existing {@code sales} and of created ones). Creates carry Idempotency-Keys, so receipts are
 * stored too. Then every Overlay is re-run unchanged, which must commit no write.
 */
class FixtureStoreGenerator {
  static final String OUT_PROPERTY = "icegate.fixture-store.out";
  static final String COMMIT_PROPERTY = "icegate.fixture-store.commit";

  /** The fixture's master key: test data, committed with the fixture as {@code data/master.key}. */
  static final byte[] MASTER_KEY =
      "icegate-fixture-store-master-key".getBytes(StandardCharsets.US_ASCII);

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private static final Schema EVENTS = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "kind", Types.StringType.get()),
      Types.NestedField.optional(3, "at", Types.TimestampType.withZone()));
  private static final Schema DIMS = new Schema(
      Types.NestedField.required(1, "code", Types.StringType.get()),
      Types.NestedField.optional(2, "label", Types.StringType.get()),
      Types.NestedField.optional(3, "weight", Types.DecimalType.of(9, 3)));

  private GatewayFixture gw;
  private FixtureUpstreams up;
  private String base;

  @Test
  void generate() throws Exception {
    String out = System.getProperty(OUT_PROPERTY);
    assertThat(out).as("-D" + OUT_PROPERTY + "=DIR names where the fixture is written")
        .isNotBlank();
    assertThat(System.getenv(MasterKey.ENV)).as("the fixture's key is data/master.key").isNull();
    assertThat(System.getenv("ICEGATE_MASTER_KEY_FILE")).isNull();
    Path target = Path.of(out);
    Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
    Path dataDir = Files.createTempDirectory("icegate-fixture-store");
    Files.writeString(dataDir.resolve(MasterKey.GENERATED_FILE),
        Base64.getEncoder().encodeToString(MASTER_KEY) + "\n");

    ObjectNode expectations = JSON.createObjectNode();
    expectations.put("writtenBy", System.getProperty(COMMIT_PROPERTY, "unknown"));
    try (FixtureUpstreams upstreams = FixtureUpstreams.seed()) {
      up = upstreams;
      KvStore store = SqliteKvStore.open(dataDir.resolve(FixtureStore.STORE_FILE));
      try (GatewayFixture gateway = GatewayFixture.startOn(dataDir, store)) {
        gw = gateway;
        build(expectations);
      }
      writeFixture(target, dataDir, expectations);
    }
  }

  private void build(ObjectNode expectations) throws Exception {
    String account = created(gw.send("POST", "/admin/v1/accounts",
        "{\"name\":\"" + FixtureStore.ACCOUNT + "\"}", "Idempotency-Key", "fixture-account"));
    base = "/admin/v1/accounts/" + account;
    String adminToken = ok(gw.send("POST", base + "/tokens",
        "{\"name\":\"fixture-admin\",\"role\":\"admin\"}")).get("token").asText();
    String readerToken = ok(gw.send("POST", base + "/tokens",
        "{\"name\":\"fixture-reader\",\"role\":\"reader\"}")).get("token").asText();

    ObjectNode lakehouseBody = JSON.createObjectNode().put("name", FixtureStore.LAKEHOUSE)
        .put("warehouse", "s3://" + FixtureUpstreams.NATIVE + "/lakehouse");
    lakehouseBody.putObject("properties").put("owner", "data-platform");
    lakehouseBody.set("storage",
        FixtureStore.lakehouseStorageWithKeys(up.objects().endpoint().toString()));
    String lakehouse = created(gw.send("POST", base + "/catalogs", FixtureStore.text(lakehouseBody),
        "Idempotency-Key", "fixture-catalog-lakehouse"));
    String federated = created(gw.send("POST", base + "/catalogs", "{\"name\":\""
        + FixtureStore.FEDERATED + "\",\"warehouse\":\"s3://" + FixtureUpstreams.NATIVE
        + "/federated\"}", "Idempotency-Key", "fixture-catalog-federated"));

    nativeContent(adminToken);

    String iceberg = created(gw.send("POST", base + "/integrations", integration(
        FixtureStore.ICEBERG, "ICEBERG_REST", up.icebergUri(), up.icebergProperties(),
        "{\"type\":\"bearer\",\"token\":\"fixture-iceberg-bearer\"}"),
        "Idempotency-Key", "fixture-integration-iceberg"));
    String unity = created(gw.send("POST", base + "/integrations", integration(
        FixtureStore.UNITY, "UNITY", up.unityUri(), up.unityProperties(),
        "{\"type\":\"oauth2-client-credentials\",\"clientId\":\"" + UnityCatalogFixture.CLIENT_ID
            + "\",\"clientSecret\":\"" + UnityCatalogFixture.CLIENT_SECRET + "\"}"),
        "Idempotency-Key", "fixture-integration-unity"));
    String sharing = created(gw.send("POST", base + "/integrations", integration(
        FixtureStore.SHARING, "DELTA_SHARING", up.sharingUri(), null,
        "{\"type\":\"bearer\",\"token\":\"" + FixtureUpstreams.SHARING_TOKEN + "\"}"),
        "Idempotency-Key", "fixture-integration-sharing"));

    String sales = overlay("sales", iceberg, federated, "[[\"sales\"]]");
    String bronze = overlay("bronze", unity, lakehouse, "[[\"bronze\"]]");
    String feeds = overlay("feeds", sharing, lakehouse, "[[\"partners\",\"feeds\"]]");

    JsonNode salesRun = reconcile(sales);
    assertThat(salesRun.get("created").asInt()).as(salesRun.toString()).isEqualTo(4);
    assertThat(salesRun.get("validated").asInt()).as(salesRun.toString()).isEqualTo(1);
    assertThat(salesRun.get("validationFailed").asInt()).as(salesRun.toString()).isEqualTo(2);
    JsonNode bronzeRun = reconcile(bronze);
    assertThat(bronzeRun.get("created").asInt()).as(bronzeRun.toString()).isEqualTo(4);
    assertThat(bronzeRun.get("warnings")).as(bronzeRun.toString()).isEmpty();
    JsonNode feedsRun = reconcileAsynchronously(feeds);
    assertThat(feedsRun.get("created").asInt()).as(feedsRun.toString()).isEqualTo(3);

    // A visibility override on the failed customers table (the returns table stays invisible).
    String customers = tableId(federated, "sales\u001femea", "customers");
    HttpResponse<String> view = gw.send("GET", base + "/catalogs/" + federated + "/tables/"
        + customers, null);
    ok(gw.send("PUT", base + "/catalogs/" + federated + "/tables/" + customers
        + "/visibility-override", "{\"note\":\"fixture: the lost file is known\"}",
        "If-Match", view.headers().firstValue("ETag").orElseThrow()));

    Map<String, String> overlays = new LinkedHashMap<>();
    overlays.put("sales", sales);
    overlays.put("bronze", bronze);
    overlays.put("feeds", feeds);
    expectations.set("rerunAtGeneration", unchangedReruns(overlays));

    ObjectNode resources = expectations.putObject("resources");
    resources.put("account", account);
    resources.putObject("catalogs").put(FixtureStore.LAKEHOUSE, lakehouse)
        .put(FixtureStore.FEDERATED, federated);
    resources.putObject("integrations").put(FixtureStore.ICEBERG, iceberg)
        .put(FixtureStore.UNITY, unity).put(FixtureStore.SHARING, sharing);
    resources.set("overlays", JSON.valueToTree(overlays));
    expectations.putObject("tokens").put("accountAdmin", adminToken)
        .put("accountReader", readerToken).put("serverAdmin", GatewayFixture.TOKEN);
    expectations.putObject("addressesAtGeneration")
        .put("objectStore", up.objects().endpoint().toString())
        .put(FixtureStore.ICEBERG, up.icebergUri()).put(FixtureStore.UNITY, up.unityUri())
        .put(FixtureStore.SHARING, up.sharingUri());

    Map<String, String> catalogs = Map.of(FixtureStore.LAKEHOUSE, lakehouse,
        FixtureStore.FEDERATED, federated);
    expectations.set("served", new ServedState(gw, account, adminToken,
        up.clientFileIoProperties()).of(catalogs));
  }

  /**
   * Native content through the gateway's Iceberg REST routes with the account's admin token:
   * {@code lakehouse}: {@code local.events} (partitioned by kind, two appends, then a column added
   * and a third append), {@code local.dims} (one append, then a property), {@code
   * local.archive.empty} (no snapshot), view {@code local.recent_events} (replaced once: two
   * versions); {@code federated}: namespace {@code sales}, which the Iceberg Overlay then claims.
   */
  private void nativeContent(String token) throws IOException {
    try (RESTCatalog lake = client(FixtureStore.LAKEHOUSE, token)) {
      lake.createNamespace(Namespace.of("local"), new HashMap<>(Map.of("owner", "data-platform")));
      lake.createNamespace(Namespace.of("local", "archive"), new HashMap<>());
      Table events = lake.createTable(TableIdentifier.of("local", "events"), EVENTS,
          PartitionSpec.builderFor(EVENTS).identity("kind").build());
      appendEvents(events, "click", 1, 2);
      appendEvents(events, "view", 3, 1);
      events.updateSchema().addColumn("note", Types.StringType.get()).commit();
      appendEvents(events, "click", 4, 2);
      Table dims = lake.createTable(TableIdentifier.of("local", "dims"), DIMS);
      appendDims(dims);
      dims.updateProperties().set("comment", "dimension codes").commit();
      lake.createTable(TableIdentifier.of(Namespace.of("local", "archive"), "empty"), DIMS);
      lake.buildView(TableIdentifier.of("local", "recent_events"))
          .withSchema(new Schema(Types.NestedField.optional(1, "id", Types.LongType.get())))
          .withDefaultNamespace(Namespace.of("local"))
          .withQuery("spark", "SELECT id FROM events WHERE id > 1")
          .create();
      lake.buildView(TableIdentifier.of("local", "recent_events"))
          .withSchema(new Schema(Types.NestedField.optional(1, "id", Types.LongType.get()),
              Types.NestedField.optional(2, "kind", Types.StringType.get())))
          .withDefaultNamespace(Namespace.of("local"))
          .withQuery("spark", "SELECT id, kind FROM events WHERE id > 1")
          .withQuery("trino", "SELECT id, kind FROM local.events WHERE id > 1")
          .withProperty("comment", "events after the first")
          .replace();
    }
    try (RESTCatalog federated = client(FixtureStore.FEDERATED, token)) {
      federated.createNamespace(Namespace.of("sales"),
          new HashMap<>(Map.of("steward", "finance")));
    }
  }

  private RESTCatalog client(String catalog, String token) {
    return ServedState.client(gw, catalog, token, up.clientFileIoProperties());
  }

  /** One append of a Parquet file with {@code count} events of {@code kind} from {@code first}. */
  private static void appendEvents(Table table, String kind, int first, int count)
      throws IOException {
    List<Record> rows = new ArrayList<>();
    for (int i = first; i < first + count; i++) {
      Record row = GenericRecord.create(table.schema());
      row.setField("id", (long) i);
      row.setField("kind", kind);
      row.setField("at", OffsetDateTime.of(2025, 1, i, 12, 0, 0, 0, ZoneOffset.UTC));
      if (table.schema().findField("note") != null) {
        row.setField("note", "note-" + i);
      }
      rows.add(row);
    }
    ParquetAppend.commit(table, "kind=" + kind + "/events-" + first + ".parquet",
        "kind=" + kind, rows);
  }

  private static void appendDims(Table table) throws IOException {
    List<Record> rows = new ArrayList<>();
    for (String code : List.of("a", "b", "c")) {
      Record row = GenericRecord.create(table.schema());
      row.setField("code", code);
      row.setField("label", "label " + code);
      row.setField("weight", new BigDecimal("1.25" + code.charAt(0) % 10));
      rows.add(row);
    }
    ParquetAppend.commit(table, "dims.parquet", null, rows);
  }

  private static String integration(String name, String type, String uri,
      Map<String, String> properties, String authentication) throws IOException {
    ObjectNode body = FixtureStore.address(uri, properties).put("displayName", name)
        .put("type", type);
    body.set("authentication", JSON.readTree(authentication));
    return FixtureStore.text(body);
  }

  private String overlay(String name, String integration, String catalog, String include) {
    return created(gw.send("POST", base + "/overlays", "{\"displayName\":\"" + name
        + "\",\"integrationId\":\"" + integration + "\",\"catalogId\":\"" + catalog
        + "\",\"includeNamespaces\":" + include + "}", "Idempotency-Key", "fixture-overlay-"
        + name));
  }

  private JsonNode reconcile(String overlay) {
    return ok(gw.send("POST", base + "/overlays/" + overlay + "/reconcile", null));
  }

  /** An asynchronous run (its operation record stays in the store); the final report. */
  private JsonNode reconcileAsynchronously(String overlay) throws InterruptedException {
    HttpResponse<String> started = gw.send("POST", base + "/overlays/" + overlay + "/reconcile",
        null, "Prefer", "respond-async");
    assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
    String location = started.headers().firstValue("Location").orElseThrow();
    JsonNode operation = ok(started);
    for (int i = 0; i < 600 && operation.get("state").asText().equals("RUNNING"); i++) {
      Thread.sleep(50);
      operation = ok(gw.send("GET", location, null));
    }
    assertThat(operation.get("state").asText()).as(operation.toString()).isEqualTo("SUCCEEDED");
    return operation.get("report");
  }

  /**
   * Re-runs every Overlay unchanged, synchronously, and records what each committed (the fixture's
   * premise: nothing, at the commit that writes it) and reported.
   */
  private ObjectNode unchangedReruns(Map<String, String> overlays) {
    ObjectNode out = JSON.createObjectNode();
    KvStore store = gw.gateway().store();
    for (Map.Entry<String, String> overlay : overlays.entrySet()) {
      StoreDump before = StoreDump.of(store);
      KvStoreStats was = store.stats();
      JsonNode report = reconcile(overlay.getValue());
      KvStoreStats now = store.stats();
      StoreDump after = StoreDump.of(store);
      ObjectNode run = out.putObject(overlay.getKey());
      run.put("committedWrites", now.committedWrites() - was.committedWrites());
      run.put("mutations", now.mutations() - was.mutations());
      run.put("changedKeys", before.changedKeys(after).size());
      for (String count : List.of("created", "updated", "unchanged", "retired",
          "namespacesClaimed", "namespacesCreated", "namespacesPruned", "captured",
          "captureUnchanged", "validated", "validationFailed")) {
        run.put(count, report.get(count).asLong());
      }
      assertThat(before.differences(after)).as("unchanged re-run of " + overlay.getKey())
          .isEmpty();
      assertThat(now.committedWrites()).as("unchanged re-run of " + overlay.getKey())
          .isEqualTo(was.committedWrites());
    }
    return out;
  }

  /** The admin API's id of Table {@code ns.name} ({@code ns} with the %1F separator). */
  private String tableId(String catalog, String namespace, String name) {
    JsonNode items = ok(gw.send("GET", base + "/catalogs/" + catalog + "/tables?namespace="
        + URLEncoder.encode(namespace, StandardCharsets.UTF_8) + "&name=" + name, null))
        .get("items");
    assertThat(items).hasSize(1);
    return items.get(0).get("id").asText();
  }

  /**
   * Writes {@code data/} (the closed store, checkpointed into its one file, and the master key),
   * {@code upstream/} and {@code expectations.json} under {@code target}, replacing what was there.
   */
  private void writeFixture(Path target, Path dataDir, ObjectNode expectations)
      throws Exception {
    for (String part : List.of(FixtureStore.DATA, FixtureStore.UPSTREAM)) {
      deleteTree(target.resolve(part));
    }
    Path data = Files.createDirectories(target.resolve(FixtureStore.DATA));
    try (Stream<Path> files = Files.list(dataDir)) {
      List<String> names = files.map(p -> p.getFileName().toString()).sorted().toList();
      assertThat(names).as("a closed store leaves no WAL beside it")
          .noneMatch(n -> n.endsWith("-wal") || n.endsWith("-shm"));
    }
    Files.copy(dataDir.resolve(FixtureStore.STORE_FILE), data.resolve(FixtureStore.STORE_FILE));
    Files.copy(dataDir.resolve(MasterKey.GENERATED_FILE), data.resolve(MasterKey.GENERATED_FILE));
    up.save(target.resolve(FixtureStore.UPSTREAM));
    StoreDump dump = StoreDump.ofSqliteFile(data.resolve(FixtureStore.STORE_FILE));
    ObjectNode store = expectations.putObject("store");
    store.put("keys", dump.size());
    store.put("bytes", dump.bytes());
    store.set("keysBySubspace", JSON.valueToTree(dump.countsBySubspace()));
    JSON.writeValue(target.resolve(FixtureStore.EXPECTATIONS).toFile(), expectations);
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  private static String created(HttpResponse<String> response) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    return ok(response).get("id").asText();
  }

  static JsonNode ok(HttpResponse<String> response) {
    assertThat(response.statusCode() / 100).as(response.statusCode() + " " + response.body())
        .isEqualTo(2);
    try {
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
