package io.icegate.gateway.fixturestore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.icegate.core.credential.MasterKey;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.KvStoreStats;
import io.icegate.gateway.testing.GatewayFixture;
import io.icegate.storage.sqlite.SqliteKvStore;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import org.junit.jupiter.api.Test;

/**
 * Issue 20, "Stored bytes unchanged": a store written by the previous main ({@code
 * src/test/resources/fixture-store}, written by {@link FixtureStoreGenerator} at the commit its
 * README names) opens with the current code, serves its tables, and an unchanged re-run of its
 * Overlays commits no write.
 *
 * <p>Steps, each checked on the store's full key/value dump and its write counters ({@link
 * KvStoreStats}):
 *
 * <ol>
 *   <li><b>Open.</b> The gateway starts on a copy of the fixture's data dir (no bootstrap token
 *       configured: the store holds it) and writes only the warehouse claims of the stored
 *       Catalogs (the fixture predates claims): the dump through the KvStore equals the file's
 *       rows read with plain SQL before anything opened it, plus one claim per Catalog.
 *   <li><b>First use of the tokens.</b> The stored server-admin and account-admin tokens
 *       (records older than issue 31) authenticate, and each gets its "last used" member: one
 *       write per token, adding only {@code lastUsedAt} (issue 31; none again within the hour).
 *   <li><b>Move the upstreams.</b> The upstreams come back with their saved content ({@link
 *       FixtureUpstreams}), but on new ports; four admin PATCHes point the three Integrations (URI,
 *       and the object-store endpoint in their properties) and Catalog {@code lakehouse}'s storage
 *       at them. Exactly four records change, each only in its address members and generations.
 *   <li><b>Serve.</b> iceberg-core's RESTCatalog and the admin API read every namespace, table
 *       (metadata and rows) and view: the same document the generator recorded, and no write.
 *   <li><b>Re-run.</b> Each Overlay is reconciled synchronously, unchanged upstream: no write at
 *       all (see {@link #REWRITTEN_ONCE} and {@link #CAPTURED_ONCE} for the foreseen exceptions).
 *   <li><b>Close.</b> The file, read with plain SQL again, holds what the gateway showed and has
 *       the same SQL schema.
 * </ol>
 */
class FixtureStoreTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HexFormat HEX = HexFormat.of();

  /**
   * Overlays whose unchanged re-run may legitimately rewrite some of their Tables once, with those
   * Tables' paths. Empty at the commit that wrote the fixture: no re-run writes anything.
   *
   * <p>Since the Delta toolkit of issue 20 (one Delta-to-Iceberg schema mapping for both Delta
   * providers), Delta Sharing's {@code partners.feeds.positions} (a map column) gets a new
   * definition once: the field ids are the ones it had, but the kept (Unity) mapping writes the
   * map's members in another order ({@code value-id} before {@code key}), so the bytes differ.
   * Since issue 26's commit identity, Unity's Delta tables ({@code bronze.events}, {@code
   * bronze.sessions}) get a new definition once: it states the head's commit identity in the
   * property {@code delta.log-commit}, which the fixture's definitions were written without.
   * Since Delta Sharing states it too (the served commit's Delta table id and version), the
   * shared tables of {@code feeds} ({@code positions}, {@code trades}, {@code quotes}) do as well.
   * For a listed Overlay the test checks that its re-run updates exactly those Tables (their
   * records, definitions and index entries, nothing else), and that a second re-run then writes
   * nothing.
   */
  private static final Map<String, Set<String>> REWRITTEN_ONCE =
      Map.of("feeds", Set.of("partners.feeds.positions", "partners.feeds.trades",
              "partners.feeds.quotes"),
          "bronze", Set.of("bronze.events", "bronze.sessions"));

  /**
   * Overlays whose unchanged re-run captures some Delta Tables once, with those Tables' paths.
   * Since issue 26 a reconcile captures Unity's Delta tables (the fixture, written before, holds
   * none of their captures): the first re-run writes each one's capture (blob, pointer, the
   * captured-at property) and its validation, the second writes nothing. Delta Sharing's fixture
   * tables have no Delta log to read, so their capture fails (a warning) and writes nothing.
   */
  private static final Map<String, Set<String>> CAPTURED_ONCE =
      Map.of("bronze", Set.of("bronze.events", "bronze.sessions"));

  /**
   * Overlays whose unchanged re-run rewrites some of their Views once, with those Views' paths.
   * Since issue 26 a Unity view's SQL names are pointed at the objects its Overlay materialized:
   * {@code bronze.recent_events} ({@code SELECT * FROM main.bronze.events ...}, stored as Unity
   * wrote it) becomes {@code ... FROM bronze.events ...} once (its record, definition and index
   * entries); the second re-run writes nothing.
   */
  private static final Map<String, Set<String>> VIEWS_REWRITTEN_ONCE =
      Map.of("bronze", Set.of("bronze.recent_events"));

  /** Record members a PATCH of an address may change (besides the address itself). */
  private static final Set<String> PATCH_BOOKKEEPING =
      Set.of("generation", "configurationGeneration", "updatedAt");

  @Test
  void theFixtureStoreOpensServesItsTablesAndRerunsItsOverlaysWithoutWriting() throws Exception {
    assertThat(System.getenv(MasterKey.ENV)).as("the fixture's secrets are encrypted with its "
        + "data/" + MasterKey.GENERATED_FILE + "; unset " + MasterKey.ENV).isNull();
    assertThat(System.getenv("ICEGATE_MASTER_KEY_FILE")).as("see " + MasterKey.ENV).isNull();
    Path fixture = FixtureStore.resourceDir();
    JsonNode expected = JSON.readTree(fixture.resolve(FixtureStore.EXPECTATIONS).toFile());
    JsonNode ids = expected.get("resources");
    String account = ids.get("account").asText();

    Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
    StoreDump pristine = StoreDump.ofSqliteFile(FixtureStore.copyData(fixture,
        Files.createTempDirectory("icegate-fixture-pristine")).resolve(FixtureStore.STORE_FILE));
    assertThat(pristine.size()).isEqualTo(expected.at("/store/keys").asInt());
    Path dataDir = FixtureStore.copyData(fixture, Files.createTempDirectory("icegate-fixture"));

    StoreDump now;
    try (FixtureUpstreams up = FixtureUpstreams.restore(fixture.resolve(FixtureStore.UPSTREAM))) {
      KvStore store = SqliteKvStore.open(dataDir.resolve(FixtureStore.STORE_FILE));
      assertThat(StoreDump.of(store).differences(pristine))
          .as("the driver reads every stored key").isEmpty();
      try (GatewayFixture gw = GatewayFixture.reopen(dataDir, store)) {
        StoreDump opened = StoreDump.of(store);
        Set<String> claims = claimsOfStoredCatalogs(pristine);
        assertThat(pristine.changedKeys(opened)).as("opening the store: "
            + String.join("\n", pristine.differences(opened))).isEqualTo(claims);
        assertThat(store.stats().mutations()).as("opening the store").isEqualTo(claims.size());

        firstUseOfTheTokens(gw, account, expected.at("/tokens/accountAdmin").asText());
        now = moveUpstreams(gw, up, account, ids);

        Map<String, String> catalogs = new LinkedHashMap<>();
        ids.get("catalogs").fields().forEachRemaining(e -> catalogs.put(e.getKey(),
            e.getValue().asText()));
        KvStoreStats beforeServing = store.stats();
        // Through its text, as the generator stored it (a long read back is an int node).
        JsonNode served = JSON.readTree(JSON.writeValueAsString(new ServedState(gw, account,
            expected.at("/tokens/accountAdmin").asText(), up.clientFileIoProperties())
            .of(catalogs)));
        assertThat(jsonDifferences("", expected.get("served"), served))
            .as("served differently from what the generator recorded").isEmpty();
        assertThat(store.stats().committedWrites()).as("serving")
            .isEqualTo(beforeServing.committedWrites());
        assertThat(now.differences(StoreDump.of(store))).as("serving").isEmpty();

        for (Iterator<Map.Entry<String, JsonNode>> it = ids.get("overlays").fields();
            it.hasNext(); ) {
          Map.Entry<String, JsonNode> overlay = it.next();
          now = rerun(gw, account, overlay.getKey(), overlay.getValue().asText(), now, ids,
              expected.at("/rerunAtGeneration/" + overlay.getKey()));
        }
      }
    }

    StoreDump closed = StoreDump.ofSqliteFile(dataDir.resolve(FixtureStore.STORE_FILE));
    assertThat(now.differences(closed)).as("the file after closing").isEmpty();
    assertThat(closed.schema()).as("the SQLite schema").isEqualTo(pristine.schema());
  }

  /**
   * The one write opening the store makes since warehouse claims (the fixture was written before
   * them): the gateway's start claims the warehouse of every stored Catalog ({@code
   * WarehouseClaimBackfill}). The keys (hex) of those claims, built from the Catalog records of
   * {@code pristine}: one per Catalog, under its normalized warehouse, its account and its id.
   */
  private static Set<String> claimsOfStoredCatalogs(StoreDump pristine) {
    io.icegate.core.repo.ResourceCodec<io.icegate.core.model.Catalog> codec =
        new io.icegate.core.repo.ResourceCodec<>(io.icegate.core.model.Catalog.class);
    Set<String> claims = new TreeSet<>();
    for (String key : pristine.keys()) {
      List<Object> items = Tuple.fromBytes(HEX.parseHex(key)).getItems();
      if (items.size() != 4 || !items.get(0).equals((long) KeySubspace.RESOURCES.tag())
          || !items.get(2).equals((long) ResourceKind.CATALOG.tag())) {
        continue;
      }
      String warehouse = codec.read(pristine.value(key)).spec().warehouse();
      io.icegate.core.catalog.WarehousePath path =
          io.icegate.core.catalog.WarehousePath.of(warehouse);
      claims.add(HEX.formatHex(KeyLayout.warehouseClaim(
          Tuple.from(path.scheme(), path.authority()).addAll(path.segments()),
          (String) items.get(1), (String) items.get(3))));
    }
    assertThat(claims).as("the fixture's Catalogs").isNotEmpty();
    return claims;
  }

  /**
   * Authenticates with the fixture's two tokens and checks that exactly their two records changed,
   * once each and only by the added {@code lastUsedAt}.
   */
  private static void firstUseOfTheTokens(GatewayFixture gw, String account, String accountAdmin)
      throws Exception {
    KvStore store = gw.gateway().store();
    StoreDump before = StoreDump.of(store);
    KvStoreStats was = store.stats();
    String path = "/admin/v1/accounts/" + account;
    assertThat(gw.send("GET", path, null).statusCode()).isEqualTo(200);
    assertThat(gw.send("GET", path, null, "Authorization", "Bearer " + accountAdmin).statusCode())
        .isEqualTo(200);
    Set<String> tokenKeys = new TreeSet<>();
    for (String token : List.of(GatewayFixture.TOKEN, accountAdmin)) {
      tokenKeys.add(HEX.formatHex(KeyLayout.token(
          io.icegate.core.auth.ApiTokens.digest(token))));
    }
    StoreDump after = StoreDump.of(store);
    assertThat(before.changedKeys(after)).as(String.join("\n", before.differences(after)))
        .isEqualTo(tokenKeys);
    assertThat(store.stats().committedWrites() - was.committedWrites()).as("one write per token")
        .isEqualTo(2);
    for (String key : tokenKeys) {
      assertThat(jsonDifferences("", JSON.readTree(before.value(key)),
          JSON.readTree(after.value(key))))
          .singleElement().asString().startsWith("/lastUsedAt: (absent) -> ");
    }
  }

  /**
   * Points the Integrations and Catalog {@code lakehouse}'s storage at the restored upstreams'
   * new addresses with admin PATCHes, and checks that exactly those four records changed, each
   * only in its address and bookkeeping members; the dump after.
   */
  private static StoreDump moveUpstreams(GatewayFixture gw, FixtureUpstreams up, String account,
      JsonNode ids) throws Exception {
    KvStore store = gw.gateway().store();
    StoreDump before = StoreDump.of(store);
    KvStoreStats was = store.stats();
    String base = "/admin/v1/accounts/" + account;
    JsonNode integrations = ids.get("integrations");
    Map<String, ObjectNode> patches = new LinkedHashMap<>();
    patches.put(FixtureStore.ICEBERG,
        FixtureStore.address(up.icebergUri(), up.icebergProperties()));
    patches.put(FixtureStore.UNITY, FixtureStore.address(up.unityUri(), up.unityProperties()));
    patches.put(FixtureStore.SHARING, FixtureStore.address(up.sharingUri(), null));
    Set<String> patchedKeys = new TreeSet<>();
    for (Map.Entry<String, ObjectNode> patch : patches.entrySet()) {
      String id = integrations.get(patch.getKey()).asText();
      patch(gw, base + "/integrations/" + id, patch.getValue());
      patchedKeys.add(HEX.formatHex(KeyLayout.resource(
          new ResourceRef(account, ResourceKind.INTEGRATION, id))));
    }
    String lakehouse = ids.at("/catalogs/" + FixtureStore.LAKEHOUSE).asText();
    ObjectNode storage = JSON.createObjectNode();
    storage.set("storage", FixtureStore.lakehouseStorage(up.objects().endpoint().toString()));
    patch(gw, base + "/catalogs/" + lakehouse, storage);
    patchedKeys.add(HEX.formatHex(KeyLayout.resource(
        new ResourceRef(account, ResourceKind.CATALOG, lakehouse))));

    StoreDump after = StoreDump.of(store);
    assertThat(before.changedKeys(after)).as(String.join("\n", before.differences(after)))
        .isEqualTo(patchedKeys);
    assertThat(store.stats().committedWrites() - was.committedWrites()).as("one write per PATCH")
        .isEqualTo(patchedKeys.size());
    for (String key : patchedKeys) {
      JsonNode was1 = JSON.readTree(before.value(key));
      JsonNode now = JSON.readTree(after.value(key));
      for (String path : jsonDifferences("", was1, now)) {
        assertThat(path).as(StoreDump.describeKey(key) + " changed beyond its address")
            .matches(p -> isAddressOrBookkeeping(p));
      }
    }
    return after;
  }

  /** A JSON path (as {@link #jsonDifferences} names them) an address PATCH may change. */
  private static boolean isAddressOrBookkeeping(String difference) {
    String path = difference.substring(0, difference.indexOf(':'));
    String top = path.split("/")[1];
    return PATCH_BOOKKEEPING.contains(top) || path.equals("/spec/uri")
        || path.equals("/spec/properties/s3.endpoint")
        || path.equals("/spec/storage/s3/endpoint");
  }

  private static void patch(GatewayFixture gw, String path, ObjectNode body) {
    HttpResponse<String> current = gw.send("GET", path, null);
    assertThat(current.statusCode()).as(current.body()).isEqualTo(200);
    HttpResponse<String> patched = gw.send("PATCH", path, FixtureStore.text(body), "If-Match",
        current.headers().firstValue("ETag").orElseThrow());
    assertThat(patched.statusCode()).as(path + ": " + patched.body()).isEqualTo(200);
  }

  /**
   * Re-runs Overlay {@code name} synchronously with its upstream unchanged and checks what it
   * wrote: nothing, or (for an Overlay in {@link #REWRITTEN_ONCE} or {@link #CAPTURED_ONCE})
   * exactly its listed Tables (and their capture blobs) once, then nothing. Returns the dump after.
   */
  private static StoreDump rerun(GatewayFixture gw, String account, String name, String overlayId,
      StoreDump before, JsonNode ids, JsonNode atGeneration) throws Exception {
    KvStore store = gw.gateway().store();
    KvStoreStats was = store.stats();
    JsonNode report = FixtureStoreGenerator.ok(gw.send("POST", "/admin/v1/accounts/" + account
        + "/overlays/" + overlayId + "/reconcile", null));
    StoreDump after = StoreDump.of(store);
    long writes = store.stats().committedWrites() - was.committedWrites();
    Set<String> rewritten = REWRITTEN_ONCE.getOrDefault(name, Set.of());
    Set<String> views = VIEWS_REWRITTEN_ONCE.getOrDefault(name, Set.of());
    Set<String> captured = CAPTURED_ONCE.getOrDefault(name, Set.of());
    String what = "unchanged re-run of Overlay " + name + ": " + report;
    if (rewritten.isEmpty() && captured.isEmpty() && views.isEmpty()) {
      assertThat(before.differences(after)).as(what).isEmpty();
      assertThat(writes).as(what + " (committed write transactions)")
          .isEqualTo(atGeneration.get("committedWrites").asLong()).isZero();
    }
    assertThat(report.get("created").asLong()).as(what).isZero();
    assertThat(report.get("retired").asLong()).as(what).isZero();
    assertThat(report.get("captured").asLong()).as(what).isEqualTo(captured.size());
    assertThat(report.get("validated").asLong()).as(what).isEqualTo(captured.size());
    assertThat(report.get("validationFailed").asLong()).as(what).isZero();
    assertThat(report.get("namespacesClaimed").asLong() + report.get("namespacesCreated").asLong()
        + report.get("namespacesPruned").asLong()).as(what).isZero();
    assertThat(report.get("updated").asLong()).as(what)
        .isEqualTo(rewritten.size() + views.size());
    assertThat(report.get("unchanged").asLong() + report.get("updated").asLong()).as(what)
        .isEqualTo(atGeneration.get("unchanged").asLong());
    if (rewritten.isEmpty() && captured.isEmpty() && views.isEmpty()) {
      return after;
    }
    Set<String> tableIds = new HashSet<>();
    for (String path : rewritten) {
      tableIds.add(tableId(gw, account, ids, path));
    }
    for (String path : captured) {
      tableIds.add(tableId(gw, account, ids, path));
    }
    for (String path : views) {
      tableIds.add(viewId(store, account, path));
    }
    List<String> foreign = new ArrayList<>();
    for (String key : before.changedKeys(after)) {
      List<Object> tuple = Tuple.fromBytes(HEX.parseHex(key)).getItems();
      // a new capture's blob is keyed by its digest alone (chunks and marker)
      boolean blob = !captured.isEmpty() && (KeySubspace.BLOBS.contains(HEX.parseHex(key))
          || KeySubspace.BLOB_MARKERS.contains(HEX.parseHex(key)));
      if (!blob && tuple.stream().noneMatch(tableIds::contains)
          && tuple.stream().noneMatch(overlayId::equals)) {
        foreign.add(StoreDump.describeKey(key));
      }
    }
    assertThat(foreign).as(what + ": keys beyond the rewritten Tables").isEmpty();
    return secondRerun(gw, account, name, overlayId, after);
  }

  /** The second re-run after a foreseen rewrite: nothing at all. */
  private static StoreDump secondRerun(GatewayFixture gw, String account, String name,
      String overlayId, StoreDump before) {
    KvStore store = gw.gateway().store();
    KvStoreStats was = store.stats();
    JsonNode report = FixtureStoreGenerator.ok(gw.send("POST", "/admin/v1/accounts/" + account
        + "/overlays/" + overlayId + "/reconcile", null));
    StoreDump after = StoreDump.of(store);
    String what = "second unchanged re-run of Overlay " + name + ": " + report;
    assertThat(before.differences(after)).as(what).isEmpty();
    assertThat(store.stats().committedWrites()).as(what).isEqualTo(was.committedWrites());
    return after;
  }

  /**
   * The id of the managed View {@code path} (dotted, name last): the admin API has no view route,
   * so from the store's View records (the native {@code local.recent_events} has another path).
   */
  private static String viewId(KvStore store, String account, String path) {
    List<String> found = new ArrayList<>();
    store.read(tx -> {
      var range = KeyLayout.resources(account, ResourceKind.VIEW).range();
      for (var kv : tx.getRange(range.begin, range.end)) {
        try {
          JsonNode view = JSON.readTree(kv.value());
          List<String> at = new ArrayList<>();
          view.at("/spec/namespace").forEach(segment -> at.add(segment.asText()));
          at.add(view.at("/spec/name").asText());
          if (String.join(".", at).equals(path) && view.at("/spec/provenance").isObject()) {
            found.add(view.get("id").asText());
          }
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }
      return null;
    });
    assertThat(found).as("managed view " + path).hasSize(1);
    return found.get(0);
  }

  /** The id of Table {@code path} (dotted, name last) in whichever fixture Catalog holds it. */
  private static String tableId(GatewayFixture gw, String account, JsonNode ids, String path) {
    int dot = path.lastIndexOf('.');
    String namespace = path.substring(0, dot).replace('.', '\u001f');
    for (JsonNode catalog : ids.get("catalogs")) {
      JsonNode items = FixtureStoreGenerator.ok(gw.send("GET", "/admin/v1/accounts/" + account
          + "/catalogs/" + catalog.asText() + "/tables?namespace="
          + URLEncoder.encode(namespace, StandardCharsets.UTF_8) + "&name="
          + path.substring(dot + 1), null)).get("items");
      if (items.size() == 1) {
        return items.get(0).get("id").asText();
      }
    }
    throw new AssertionError("no table " + path);
  }

  /** The fixture stays small: well under 1 MB in the repository. */
  @Test
  void theFixtureIsSmall() throws Exception {
    long bytes;
    try (Stream<Path> files = Files.walk(FixtureStore.resourceDir())) {
      bytes = files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
    assertThat(bytes).isLessThan(1024 * 1024);
  }

  /**
   * Where {@code actual} differs from {@code expected}: one line per JSON path, {@code
   * /path: expected -> actual} (a missing side shown as {@code (absent)}).
   */
  static List<String> jsonDifferences(String path, JsonNode expected, JsonNode actual) {
    List<String> out = new ArrayList<>();
    if (expected != null && actual != null && expected.isObject() && actual.isObject()) {
      Set<String> names = new TreeSet<>();
      expected.fieldNames().forEachRemaining(names::add);
      actual.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        out.addAll(jsonDifferences(path + "/" + name, expected.get(name), actual.get(name)));
      }
    } else if (expected != null && actual != null && expected.isArray() && actual.isArray()
        && expected.size() == actual.size()) {
      for (int i = 0; i < expected.size(); i++) {
        out.addAll(jsonDifferences(path + "/" + i, expected.get(i), actual.get(i)));
      }
    } else if (expected == null || !expected.equals(actual)) {
      out.add(path + ": " + (expected == null ? "(absent)" : expected) + " -> "
          + (actual == null ? "(absent)" : actual));
    }
    return out;
  }
}
