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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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

  @TempDir static Path scratch;

  private static ObjectStoreFixture objects;
  private static S3Client s3;
  private static UnityCatalogFixture unity;
  private static GatewayFixture gw;
  private static String overlayPath;

  @BeforeAll
  static void start() throws Exception {
    ObjectStoreFixture.useChecksumsOnlyWhenRequired();
    objects = ObjectStoreFixture.startS3Proxy();
    objects.createBucket(LAKE);
    s3 = objects.newClient();
    unity = UnityCatalogFixture.start(objects.accessKeyId(), objects.secretAccessKey());
    unity.requireOAuth();
    gw = GatewayFixture.start();
    String base = "/admin/v1/accounts/" + gw.defaultAccountId();
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(UnitySettings.CATALOG, "main");
    properties.put(UnitySettings.S3_ENDPOINT, objects.endpoint().toString());
    properties.put(UnitySettings.S3_REGION, ObjectStoreFixture.REGION);
    properties.put(UnitySettings.S3_PATH_STYLE_ACCESS, "true");
    String integration = FederatedCatalog.json(gw.send("POST", base + "/integrations",
        "{\"displayName\":\"unity\",\"type\":\"UNITY\",\"uri\":\"" + unity.uri() + "\","
            + "\"properties\":" + JSON.writeValueAsString(properties) + ","
            + "\"authentication\":{\"type\":\"oauth2-client-credentials\",\"clientId\":\""
            + UnityCatalogFixture.CLIENT_ID + "\",\"clientSecret\":\""
            + UnityCatalogFixture.CLIENT_SECRET + "\"}}")).get("id").asText();
    String overlay = FederatedCatalog.json(gw.send("POST", base + "/overlays",
        "{\"displayName\":\"gold\",\"integrationId\":\"" + integration + "\",\"catalogId\":\""
            + gw.prefix() + "\",\"includeNamespaces\":[[\"gold\"]]}")).get("id").asText();
    overlayPath = base + "/overlays/" + overlay;
  }

  @AfterAll
  static void stop() throws Exception {
    gw.close();
    unity.close();
    s3.close();
    objects.close();
  }

  @Test
  void aUnityDeltaTableIsReadThroughTheGatewayWithItsRowsHistoryAndNewCommits()
      throws Exception {
    KernelTableWriter delta = new KernelTableWriter(scratch, s3, LAKE);
    delta.create("gold/orders", ORDERS, List.of("region"), Map.of());
    delta.append("gold/orders", Map.of("region", Literal.ofString("EU")),
        List.<Object[]>of(new Object[] {1L, "EU"}, new Object[] {2L, "EU"}));
    delta.uploadTable("gold/orders");
    Map<String, String> columns = new LinkedHashMap<>();
    columns.put("id", "long");
    columns.put("region", "string");
    unity.addTable("main", "gold", "orders", "EXTERNAL", "DELTA", "s3://" + LAKE + "/gold/orders",
        columns);

    JsonNode first = reconcile();
    assertThat(first.get("warnings")).as(first.toString()).isEmpty();
    try (RESTCatalog client = client()) {
      Table table = client.loadTable(IDENT);
      assertThat(table.currentSnapshot()).isNotNull();
      assertThat(rows(table, null)).containsExactly("1:EU", "2:EU");
    }

    delta.append("gold/orders", Map.of("region", Literal.ofString("US")),
        List.<Object[]>of(new Object[] {3L, "US"}));
    delta.uploadTable("gold/orders");
    JsonNode second = reconcile();
    assertThat(second.get("warnings")).as(second.toString()).isEmpty();
    try (RESTCatalog client = client()) {
      Table table = client.loadTable(IDENT);
      List<Snapshot> history = new ArrayList<>();
      table.snapshots().forEach(history::add);
      assertThat(history).hasSize(2);
      assertThat(rows(table, null)).containsExactly("1:EU", "2:EU", "3:US");
      assertThat(rows(table, history.get(0).snapshotId())).containsExactly("1:EU", "2:EU");
    }
  }

  private static JsonNode reconcile() {
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
