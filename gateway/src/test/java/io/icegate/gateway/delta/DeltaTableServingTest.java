package io.icegate.gateway.delta;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.icegate.access.delta.fixture.KernelTableWriter;
import io.icegate.access.delta.iceberg.IcebergRows;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.access.unity.UnitySettings;
import io.icegate.access.unity.fixture.UnityCatalogFixture;
import io.icegate.gateway.testing.FederatedCatalog;
import io.icegate.gateway.testing.GatewayFixture;
import io.icegate.gateway.testing.StsFixture;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.util.JsonUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Issue 26, reading: a Delta table of a Unity Catalog (the Unity fixture, written from Unity's
 * OpenAPI; the table written by Delta Kernel on s3proxy) reconciled by a real gateway is served by
 * load-table as its captured Iceberg metadata, and iceberg-core's RESTCatalog with iceberg-data's
 * generic Parquet reader gets exactly the table's rows, after a new upstream commit too, and the earlier
 * rows by time travel to the earlier captured snapshot.
 */
class DeltaTableServingTest {
  private static final String LAKE = "lake";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final StructType ORDERS =
      new StructType().add("id", LongType.LONG, false).add("region", StringType.STRING, true);
  private static final TableIdentifier IDENT = TableIdentifier.of("gold", "orders");
  /** The table properties that carried the capture's Delta state before it left the metadata. */
  private static final List<String> DELTA_STATE =
      List.of("icegate.delta.protocol", "icegate.delta.metadata");
  private static final String ROLE = "arn:aws:iam::123456789012:role/icegate-generated-reader";

  @TempDir static Path scratch;

  private static ObjectStoreFixture objects;
  /** The Catalog's own store for generated files: another identity than the upstream's. */
  private static ObjectStoreFixture warehouse;
  private static S3Client s3;
  private static UnityCatalogFixture unity;
  private static GatewayFixture gw;
  private static String base;
  private static String integration;

  @BeforeAll
  static void start() throws Exception {
    ObjectStoreFixture.useChecksumsOnlyWhenRequired();
    objects = ObjectStoreFixture.startS3Proxy();
    objects.createBucket(LAKE);
    s3 = objects.newClient();
    warehouse = ObjectStoreFixture.startS3Proxy("warehouse-key", "warehouse-secret-9d2e51");
    warehouse.createBucket("generated");
    unity = UnityCatalogFixture.start(objects.accessKeyId(), objects.secretAccessKey());
    unity.requireOAuth();
    gw = GatewayFixture.start();
    base = "/admin/v1/accounts/" + gw.defaultAccountId();
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(UnitySettings.CATALOG, "main");
    properties.put(UnitySettings.S3_ENDPOINT, objects.endpoint().toString());
    properties.put(UnitySettings.S3_REGION, ObjectStoreFixture.REGION);
    properties.put(UnitySettings.S3_PATH_STYLE_ACCESS, "true");
    integration = FederatedCatalog.json(gw.send("POST", base + "/integrations",
        "{\"displayName\":\"unity\",\"type\":\"UNITY\",\"uri\":\"" + unity.uri() + "\","
            + "\"properties\":" + JSON.writeValueAsString(properties) + ","
            + "\"authentication\":{\"type\":\"oauth2-client-credentials\",\"clientId\":\""
            + UnityCatalogFixture.CLIENT_ID + "\",\"clientSecret\":\""
            + UnityCatalogFixture.CLIENT_SECRET + "\"}}")).get("id").asText();
  }

  /** An Overlay of {@code namespace} into {@code catalogId}; its admin path. */
  private static String overlay(String namespace, String catalogId) {
    String overlay = FederatedCatalog.json(gw.send("POST", base + "/overlays",
        "{\"displayName\":\"" + namespace + "\",\"integrationId\":\"" + integration
            + "\",\"catalogId\":\"" + catalogId + "\",\"includeNamespaces\":[[\"" + namespace
            + "\"]],\"retention\":\"P1D\"}")).get("id").asText();
    return base + "/overlays/" + overlay;
  }

  /** A Delta table {@code namespace.orders} written by Kernel (ids 1, 2 in EU), in Unity. */
  private static KernelTableWriter ordersTable(String namespace) {
    KernelTableWriter delta = new KernelTableWriter(scratch, s3, LAKE);
    delta.create(namespace + "/orders", ORDERS, List.of("region"), Map.of());
    delta.append(namespace + "/orders", Map.of("region", Literal.ofString("EU")),
        List.<Object[]>of(new Object[] {1L, "EU"}, new Object[] {2L, "EU"}));
    delta.uploadTable(namespace + "/orders");
    Map<String, String> columns = new LinkedHashMap<>();
    columns.put("id", "long");
    columns.put("region", "string");
    unity.addTable("main", namespace, "orders", "EXTERNAL", "DELTA",
        "s3://" + LAKE + "/" + namespace + "/orders", columns);
    return delta;
  }

  @AfterAll
  static void stop() throws Exception {
    gw.close();
    unity.close();
    warehouse.close();
    s3.close();
    objects.close();
  }

  @Test
  void aUnityDeltaTableIsReadThroughTheGatewayWithItsRowsHistoryAndNewCommits()
      throws Exception {
    KernelTableWriter delta = ordersTable("gold");
    String overlayPath = overlay("gold", gw.prefix());

    JsonNode first = reconcile(overlayPath);
    assertThat(first.get("warnings")).as(first.toString()).isEmpty();
    String firstFile;
    try (RESTCatalog client = client()) {
      Table table = client.loadTable(IDENT);
      assertThat(table.currentSnapshot()).isNotNull();
      assertThat(rows(table, null)).containsExactly("1:EU", "2:EU");
      firstFile = assertServedFromItsMetadataFile(table);
    }

    delta.append("gold/orders", Map.of("region", Literal.ofString("US")),
        List.<Object[]>of(new Object[] {3L, "US"}));
    delta.uploadTable("gold/orders");
    JsonNode second = reconcile(overlayPath);
    assertThat(second.get("warnings")).as(second.toString()).isEmpty();
    try (RESTCatalog client = client()) {
      Table table = client.loadTable(IDENT);
      List<Snapshot> history = new ArrayList<>();
      table.snapshots().forEach(history::add);
      assertThat(history).hasSize(2);
      assertThat(rows(table, null)).containsExactly("1:EU", "2:EU", "3:US");
      assertThat(rows(table, history.get(0).snapshotId())).containsExactly("1:EU", "2:EU");
      String secondFile = assertServedFromItsMetadataFile(table);
      assertThat(secondFile).isNotEqualTo(firstFile);
      assertThat(((HasTableOperations) table).operations().current().previousFiles())
          .extracting(TableMetadata.MetadataLogEntry::file).containsExactly(firstFile);
    }
  }

  /**
   * Issue 26: the served metadata-location is an Iceberg metadata file icegate wrote under the
   * table's generated prefix (not the Delta commit file), and iceberg-core reading that file gets
   * exactly the metadata load-table answered. Returns the location.
   */
  private static String assertServedFromItsMetadataFile(Table table) {
    TableMetadata served = ((HasTableOperations) table).operations().current();
    String location = served.metadataFileLocation();
    assertThat(location).matches(
        "file:.*/_icegate/delta/[^/]+/metadata/\\d{5}-[0-9a-f-]{36}\\.metadata\\.json");
    TableMetadata read = TableMetadataParser.read(table.io(), location);
    assertThat(read.metadataFileLocation()).isEqualTo(location);
    assertSameMetadata(read, served);
    assertThat(read.property("icegate.captured-at", null)).isNotNull();
    // the capture's own Delta state is kept beside the capture, never served nor in the file
    assertThat(served.properties().keySet()).doesNotContainAnyElementsOf(DELTA_STATE);
    assertThat(read.properties().keySet()).doesNotContainAnyElementsOf(DELTA_STATE);
    return location;
  }

  /**
   * The same metadata, member for member; JSON object members compare without order (the
   * properties map's order is not part of Iceberg's metadata).
   */
  private static void assertSameMetadata(TableMetadata read, TableMetadata served) {
    try {
      assertThat(JsonUtil.mapper().readTree(TableMetadataParser.toJson(read)))
          .isEqualTo(JsonUtil.mapper().readTree(TableMetadataParser.toJson(served)));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * Issue 26, vended credentials: the Catalog keeps the generated files on its own store (static
   * keys it vends, another identity than the upstream's store), so a delegated load of a Delta
   * table answers two credentials, each with endpoint, region and path style: the upstream's
   * vended one for the data location, the Catalog's for the generated prefix; no refresh endpoint
   * (iceberg-core's refresh takes one credential only); the credentials route answers the same.
   * A client with no storage settings of its own reads the rows with them.
   */
  @Test
  void aDelegatedLoadOfADeltaTableAnswersOneCredentialPerPrefix() throws Exception {
    ordersTable("silver");
    String catalog = catalogOnTheWarehouseStore("remote", "cat", "\"vendStaticKeys\":true");
    JsonNode report = reconcile(overlay("silver", catalog));
    assertThat(report.get("warnings")).as(report.toString()).isEmpty();
    String tableId = tableId(catalog, "silver");
    try (S3Client own = warehouse.newClient()) {
      assertThat(own.listObjectsV2(b -> b.bucket("generated").prefix("cat/_icegate/delta/" + tableId
          + "/")).contents()).isNotEmpty();
    }

    String path = "/iceberg/v1/" + catalog + "/namespaces/silver/tables/orders";
    JsonNode loaded = delegated(path);
    assertThat(loaded.path("config").has("client.refresh-credentials-endpoint")).isFalse();
    Map<String, JsonNode> byPrefix = byPrefix(loaded.get("storage-credentials"));
    String data = "s3://" + LAKE + "/silver/orders";
    String generated = "s3://generated/cat/_icegate/delta/" + tableId;
    assertThat(byPrefix).containsOnlyKeys(data, generated);
    assertReaches(byPrefix.get(data), objects, objects.accessKeyId());
    assertReaches(byPrefix.get(generated), warehouse, warehouse.accessKeyId());

    JsonNode routed = delegated(path + "/credentials");
    assertThat(byPrefix(routed.get("storage-credentials"))).containsOnlyKeys(data, generated);

    Map<String, String> props = new HashMap<>();
    props.put(CatalogProperties.URI, gw.icebergUri());
    props.put(CatalogProperties.WAREHOUSE_LOCATION, "remote");
    props.put("token", GatewayFixture.TOKEN);
    props.put("header.X-Iceberg-Access-Delegation", "vended-credentials");
    props.put(CatalogProperties.FILE_IO_IMPL, "org.apache.iceberg.aws.s3.S3FileIO");
    try (RESTCatalog client = new RESTCatalog()) {
      client.initialize("icegate", props);
      Table table = client.loadTable(TableIdentifier.of("silver", "orders"));
      assertThat(rows(table, null)).containsExactly("1:EU", "2:EU");
      // the metadata file on the Catalog's own store, read with the vended credentials
      TableMetadata served = ((HasTableOperations) table).operations().current();
      assertThat(served.metadataFileLocation()).startsWith(generated + "/metadata/");
      assertSameMetadata(TableMetadataParser.read(table.io(), served.metadataFileLocation()), served);
    }
  }

  /**
   * tryout: a Unity location is a URI ({@code s3://lake/spaced/my%20orders}) and the upstream
   * vends for that prefix, while the capture names the data files by their keys ({@code
   * s3://lake/spaced/my orders/...}); S3FileIO pairs them by string prefix, so the client read the
   * data with its own settings instead of the vended keys. The data credential carries the decoded
   * prefix, on load-table and the credentials route; a client whose own keys the store refuses
   * reads the rows.
   */
  @Test
  void aLocationWithAnEscapedSpaceGetsItsCredentialUnderTheDataFilesPrefix() throws Exception {
    KernelTableWriter delta = new KernelTableWriter(scratch, s3, LAKE);
    delta.create("spaced", ORDERS, List.of("region"), Map.of());
    delta.append("spaced", Map.of("region", Literal.ofString("EU")),
        List.<Object[]>of(new Object[] {1L, "EU"}, new Object[] {2L, "EU"}));
    // written where the local path has no space (Kernel's writer would log absolute paths),
    // then put under keys with one: the log's paths are relative to the root, as a real table's
    Path written = scratch.resolve("spaced");
    try (var files = java.nio.file.Files.walk(written)) {
      for (Path file : files.filter(java.nio.file.Files::isRegularFile)
          .filter(f -> !f.getFileName().toString().startsWith(".")).toList()) {
        String key = "spaced/my orders/" + written.relativize(file).toString().replace('\\', '/');
        s3.putObject(b -> b.bucket(LAKE).key(key), RequestBody.fromFile(file));
      }
    }
    Map<String, String> columns = new LinkedHashMap<>();
    columns.put("id", "long");
    columns.put("region", "string");
    unity.addTable("main", "spaced", "orders", "EXTERNAL", "DELTA",
        "s3://" + LAKE + "/spaced/my%20orders", columns);
    String catalog = catalogOnTheWarehouseStore("spaced", "sp", "\"vendStaticKeys\":true");
    JsonNode report = reconcile(overlay("spaced", catalog));
    assertThat(report.get("warnings")).as(report.toString()).isEmpty();
    String generated = "s3://generated/sp/_icegate/delta/" + tableId(catalog, "spaced");
    String data = "s3://" + LAKE + "/spaced/my orders";

    String path = "/iceberg/v1/" + catalog + "/namespaces/spaced/tables/orders";
    Map<String, JsonNode> byPrefix = byPrefix(delegated(path).get("storage-credentials"));
    assertThat(byPrefix).containsOnlyKeys(data, generated);
    assertReaches(byPrefix.get(data), objects, objects.accessKeyId());
    assertThat(byPrefix(delegated(path + "/credentials").get("storage-credentials")))
        .containsOnlyKeys(data, generated);

    Map<String, String> props = new HashMap<>();
    props.put(CatalogProperties.URI, gw.icebergUri());
    props.put(CatalogProperties.WAREHOUSE_LOCATION, "spaced");
    props.put("token", GatewayFixture.TOKEN);
    props.put("header.X-Iceberg-Access-Delegation", "vended-credentials");
    props.put(CatalogProperties.FILE_IO_IMPL, "org.apache.iceberg.aws.s3.S3FileIO");
    // the client's own settings reach the upstream's store with keys it refuses: a data file
    // read without the vended credential fails (403) instead of reaching for real AWS
    props.put("s3.endpoint", objects.endpoint().toString());
    props.put("s3.path-style-access", "true");
    props.put("client.region", ObjectStoreFixture.REGION);
    props.put("s3.access-key-id", "not-the-upstream");
    props.put("s3.secret-access-key", "refused-by-the-store");
    try (RESTCatalog client = new RESTCatalog()) {
      client.initialize("icegate", props);
      Table table = client.loadTable(TableIdentifier.of("spaced", "orders"));
      assertThat(table.currentSnapshot().addedDataFiles(table.io()))
          .allSatisfy(f -> assertThat(f.location()).startsWith(data + "/"));
      assertThat(rows(table, null)).containsExactly("1:EU", "2:EU");
    }

    // A Catalog that vends nothing for the generated files: the one credential, still decoded,
    // and with it the refresh route, which answers that one (S3FileIO's refresh takes one only).
    unity.addTable("main", "spaced2", "orders", "EXTERNAL", "DELTA",
        "s3://" + LAKE + "/spaced/my%20orders", columns);
    report = reconcile(overlay("spaced2", gw.prefix()));
    assertThat(report.get("warnings")).as(report.toString()).isEmpty();
    String own = "/iceberg/v1/" + gw.prefix() + "/namespaces/spaced2/tables/orders";
    JsonNode alone = delegated(own);
    assertThat(byPrefix(alone.get("storage-credentials"))).containsOnlyKeys(data);
    assertThat(alone.path("config").path("client.refresh-credentials-endpoint").asText())
        .endsWith("/namespaces/spaced2/tables/orders/credentials");
    assertThat(byPrefix(delegated(own + "/credentials").get("storage-credentials")))
        .containsOnlyKeys(data);
  }

  /**
   * Issue 26, vended credentials through STS: a Catalog that vends by AssumeRole answers a
   * delegated load of a captured Delta table with the upstream's credential for the data and one
   * STS session for the table's generated prefix, asked for with a session policy that is
   * read-only (even for a writer's token) and scoped to exactly that prefix; each credential with
   * endpoint, region and path style; no refresh endpoint (two credentials); the credentials route
   * answers the same set, reusing the session.
   */
  @Test
  void anStsCatalogVendsAReadOnlySessionScopedToTheGeneratedPrefix() throws Exception {
    ordersTable("bronze");
    try (StsFixture sts = StsFixture.start()) {
      String catalog = catalogOnTheWarehouseStore("sts-remote", "sts", "\"roleArn\":\"" + ROLE
          + "\",\"stsEndpoint\":\"" + sts.endpoint() + "\",\"durationSeconds\":1800");
      JsonNode report = reconcile(overlay("bronze", catalog));
      assertThat(report.get("warnings")).as(report.toString()).isEmpty();
      String tableId = tableId(catalog, "bronze");
      String data = "s3://" + LAKE + "/bronze/orders";
      String generated = "s3://generated/sts/_icegate/delta/" + tableId;

      int before = sts.requests().size();
      String path = "/iceberg/v1/" + catalog + "/namespaces/bronze/tables/orders";
      JsonNode loaded = delegated(path);
      assertThat(loaded.path("config").has("client.refresh-credentials-endpoint")).isFalse();
      Map<String, JsonNode> byPrefix = byPrefix(loaded.get("storage-credentials"));
      assertThat(byPrefix).containsOnlyKeys(data, generated);
      JsonNode upstream = assertReaches(byPrefix.get(data), objects, objects.accessKeyId());
      StsFixture.Issued session = sts.issued().get(sts.issued().size() - 1);
      JsonNode own = assertReaches(byPrefix.get(generated), warehouse, session.accessKeyId());
      assertThat(own.get("s3.secret-access-key").asText()).isEqualTo(session.secretAccessKey());
      assertThat(own.get("s3.session-token").asText()).isEqualTo(session.sessionToken());

      List<StsFixture.Received> asked = sts.requests().subList(before, sts.requests().size());
      assertThat(asked).hasSize(1);
      StsFixture.Received request = asked.get(0);
      assertThat(request.get("RoleArn")).isEqualTo(ROLE);
      assertThat(request.signingKeyId()).isEqualTo(warehouse.accessKeyId());
      StsFixture.SessionPolicy policy = request.policy();
      String key = "sts/_icegate/delta/" + tableId;
      assertThat(policy.objectResources()).containsExactly("arn:aws:s3:::generated/" + key + "/*");
      assertThat(policy.objectActions())
          .containsExactlyInAnyOrder("s3:GetObject", "s3:GetObjectVersion");
      assertThat(policy.listPrefixes()).containsExactlyInAnyOrder(key + "/", key + "/*");

      JsonNode routed = delegated(path + "/credentials");
      Map<String, JsonNode> routedByPrefix = byPrefix(routed.get("storage-credentials"));
      assertThat(routedByPrefix).containsOnlyKeys(data, generated);
      assertThat(routedByPrefix.get(generated).get("config")).isEqualTo(own);
      assertThat(routedByPrefix.get(data).get("config")).isEqualTo(upstream);
      assertThat(sts.requests()).hasSize(before + 1);
    }
  }

  private static Map<String, JsonNode> byPrefix(JsonNode credentials) {
    Map<String, JsonNode> out = new LinkedHashMap<>();
    credentials.forEach(c -> out.put(c.get("prefix").asText(), c));
    return out;
  }

  /**
   * Asserts that {@code credential} reaches {@code store} as {@code accessKeyId}: that key id and
   * the store's endpoint, region and path style, which a client without storage settings of its
   * own needs beside the keys. Returns the credential's config.
   */
  private static JsonNode assertReaches(JsonNode credential, ObjectStoreFixture store,
      String accessKeyId) {
    JsonNode config = credential.get("config");
    assertThat(config.get("s3.access-key-id").asText()).isEqualTo(accessKeyId);
    assertThat(config.get("s3.endpoint").asText()).isEqualTo(store.endpoint().toString());
    assertThat(config.get("client.region").asText()).isEqualTo(ObjectStoreFixture.REGION);
    assertThat(config.get("s3.path-style-access").asText()).isEqualTo("true");
    return config;
  }

  /** {@code GET path} asking for vended credentials; the answer. */
  private static JsonNode delegated(String path) {
    return FederatedCatalog.json(gw.send("GET", path, null,
        "X-Iceberg-Access-Delegation", "vended-credentials"));
  }

  /**
   * Creates Catalog {@code name} whose warehouse is {@code s3://generated/<prefix>} on the
   * Catalog's own store, with its keys and {@code vending} (the S3 settings' vending members, as
   * JSON); its id.
   */
  private static String catalogOnTheWarehouseStore(String name, String prefix, String vending) {
    return FederatedCatalog.json(gw.send("POST", base + "/catalogs",
        "{\"name\":\"" + name + "\",\"warehouse\":\"s3://generated/" + prefix
            + "\",\"storage\":{\"s3\":{\"endpoint\":\"" + warehouse.endpoint()
            + "\",\"region\":\"us-east-1\",\"pathStyleAccess\":true,\"accessKeyId\":\""
            + warehouse.accessKeyId() + "\",\"secretAccessKey\":\"" + warehouse.secretAccessKey()
            + "\"," + vending + "}}}")).get("id").asText();
  }

  /** The id of {@code namespace.orders} in Catalog {@code catalogId}, from the admin API. */
  private static String tableId(String catalogId, String namespace) {
    JsonNode found = FederatedCatalog.json(gw.send("GET", base + "/catalogs/" + catalogId
        + "/tables?namespace=" + namespace + "&name=orders", null));
    return found.get("items").get(0).get("id").asText();
  }

  private static JsonNode reconcile(String overlayPath) {
    return FederatedCatalog.json(gw.send("POST", overlayPath + "/reconcile", null));
  }

  /**
   * A client with its own storage settings (no delegation): the data files on s3proxy through
   * S3FileIO, the generated files in the gateway's local warehouse through Hadoop's FileIO.
   */
  private static RESTCatalog client() {
    Map<String, String> props = new HashMap<>(objects.s3FileIoProperties());
    props.put(CatalogProperties.URI, gw.icebergUri());
    props.put(CatalogProperties.WAREHOUSE_LOCATION, "default");
    props.put("token", GatewayFixture.TOKEN);
    props.put(CatalogProperties.FILE_IO_IMPL, "org.apache.iceberg.io.ResolvingFileIO");
    RESTCatalog catalog = new RESTCatalog();
    catalog.initialize("icegate", props);
    return catalog;
  }

  /**
   * Every row as {@code id:region}, ordered by id, read as Iceberg engines read (the delta
   * toolkit's {@code IcebergRows}: iceberg-data's generic readers, with the table's name mapping,
   * which {@code IcebergGenerics} itself ignores; files written without column mapping have no
   * field ids).
   */
  private static List<String> rows(Table table, Long snapshotId) {
    return IcebergRows.read(table, snapshotId, Expressions.alwaysTrue()).stream()
        .map(r -> r.get(0) + ":" + r.get(1)).toList();
  }
}
