package io.icegate.gateway.fixturestore;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.icegate.access.deltasharing.fixture.DeltaSharingFixture;
import io.icegate.access.iceberg.fixture.CredentialVendingFilter;
import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.access.unity.UnitySettings;
import io.icegate.access.delta.fixture.DeltaLogWriter;
import io.icegate.access.unity.fixture.UnityCatalogFixture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.rest.RESTCatalog;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The upstream side of the stored-bytes fixture ({@code src/test/resources/fixture-store}): one
 * s3proxy, the Iceberg REST fixture (Iceberg's servlet over a JDBC catalog), the Unity Catalog
 * fixture and the Delta Sharing fixture, all on loopback.
 *
 * <p>{@link #seed()} builds them fresh for the generator; {@link #restore(Path)} brings the same
 * upstreams back for the test, so that a re-run of the fixture's Overlays meets exactly what the
 * generator's runs met:
 *
 * <ul>
 *   <li>the object store's content (Iceberg warehouse, Delta logs, the gateway's own warehouse)
 *       and the Iceberg catalog's JDBC rows (namespaces, table and view pointers) are saved as
 *       files by {@link #save(Path)} and put back as they were: same table UUIDs, metadata files,
 *       snapshots and data files;
 *   <li>Unity's and Delta Sharing's content is fixed code below, with fixed table ids and
 *       recipient token.
 * </ul>
 *
 * What cannot be kept are the ports: every fixture listens on a free one, so the test points the
 * Integrations and the Catalog's storage at the new addresses (admin PATCH) before it serves.
 */
final class FixtureUpstreams implements AutoCloseable {
  /** Bucket of the Delta tables of Unity and Delta Sharing. */
  static final String LAKE = "lake";
  /** Bucket of the gateway's own warehouse (Catalog {@code lakehouse}). */
  static final String NATIVE = "native";
  /** Delta Sharing recipient token (test data: stored encrypted in the fixture store). */
  static final String SHARING_TOKEN = "recipient-fixture-store-token";
  /** Unity catalog whose schemas are the Overlay's root namespaces. */
  static final String UNITY_CATALOG = "main";

  static final String OBJECTS_DIR = "objects";
  static final String ICEBERG_ROWS_FILE = "iceberg-catalog.json";

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /** Delta Sharing tables' schema (flat), as the protocol's metadata carries it. */
  static final String FLAT_SCHEMA = "{\"type\":\"struct\",\"fields\":["
      + "{\"name\":\"symbol\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"price\",\"type\":\"double\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"day\",\"type\":\"date\",\"nullable\":true,\"metadata\":{}}]}";

  /**
   * A nested Delta schema (struct, array, map): where Delta-to-Iceberg mapping must assign ids to
   * nested fields, so a change of that mapping shows here first.
   */
  static final String NESTED_SCHEMA = "{\"type\":\"struct\",\"fields\":["
      + "{\"name\":\"id\",\"type\":\"long\",\"nullable\":false,\"metadata\":{}},"
      + "{\"name\":\"device\",\"type\":{\"type\":\"struct\",\"fields\":["
      + "{\"name\":\"os\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"version\",\"type\":\"integer\",\"nullable\":true,\"metadata\":{}}]},"
      + "\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"tags\",\"type\":{\"type\":\"array\",\"elementType\":\"string\","
      + "\"containsNull\":true},\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"attributes\",\"type\":{\"type\":\"map\",\"keyType\":\"string\","
      + "\"valueType\":\"long\",\"valueContainsNull\":true},\"nullable\":true,\"metadata\":{}}]}";

  private final ObjectStoreFixture objects;
  private final String jdbcUrl;
  private final IcebergRestFixture iceberg;
  private final UnityCatalogFixture unity;
  private final DeltaSharingFixture sharing;

  private FixtureUpstreams(ObjectStoreFixture objects, String jdbcUrl, IcebergRestFixture iceberg,
      UnityCatalogFixture unity, DeltaSharingFixture sharing) {
    this.objects = objects;
    this.jdbcUrl = jdbcUrl;
    this.iceberg = iceberg;
    this.unity = unity;
    this.sharing = sharing;
  }

  /** Fresh upstreams with the fixture's content (the generator). */
  static FixtureUpstreams seed() throws Exception {
    FixtureUpstreams up = start();
    try {
      up.objects.createBucket(LAKE);
      up.objects.createBucket(NATIVE);
      up.iceberg.seed();
      up.seedIcebergSnapshots();
      up.writeDeltaLogs();
      return up;
    } catch (Exception | Error e) {
      up.close();
      throw e;
    }
  }

  /** The upstreams {@link #save} wrote under {@code dir}, on new ports (the test). */
  static FixtureUpstreams restore(Path dir) throws Exception {
    FixtureUpstreams up = start();
    try {
      up.restoreObjects(dir.resolve(OBJECTS_DIR));
      up.restoreIcebergRows(dir.resolve(ICEBERG_ROWS_FILE));
      return up;
    } catch (Exception | Error e) {
      up.close();
      throw e;
    }
  }

  private static FixtureUpstreams start() throws Exception {
    ObjectStoreFixture.useChecksumsOnlyWhenRequired();
    ObjectStoreFixture objects = ObjectStoreFixture.startS3Proxy();
    IcebergRestFixture iceberg = null;
    UnityCatalogFixture unity = null;
    try {
      String jdbcUrl = "jdbc:h2:mem:fixture-store-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
      iceberg = IcebergRestFixture.start(objects, jdbcUrl);
      unity = UnityCatalogFixture.start(objects.accessKeyId(), objects.secretAccessKey());
      DeltaSharingFixture sharing = DeltaSharingFixture.start();
      FixtureUpstreams up = new FixtureUpstreams(objects, jdbcUrl, iceberg, unity, sharing);
      // Validation reads the Iceberg tables' data files with what the upstream vends, only.
      iceberg.vending().plan(location -> up.storeSession());
      unity.requireOAuth();
      up.unityContent();
      up.sharingContent();
      return up;
    } catch (Exception | Error e) {
      if (unity != null) {
        unity.close();
      }
      if (iceberg != null) {
        iceberg.close();
      }
      objects.close();
      throw e;
    }
  }

  ObjectStoreFixture objects() {
    return objects;
  }

  /** The Iceberg REST Integration's URI and properties (the object store's S3 settings). */
  String icebergUri() {
    return iceberg.uri().toString();
  }

  Map<String, String> icebergProperties() {
    return new LinkedHashMap<>(objects.s3Settings());
  }

  String unityUri() {
    return unity.uri().toString();
  }

  /** The Unity Integration's properties: its catalog and the object store of its Delta logs. */
  Map<String, String> unityProperties() {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(UnitySettings.CATALOG, UNITY_CATALOG);
    properties.put(UnitySettings.S3_ENDPOINT, objects.endpoint().toString());
    properties.put(UnitySettings.S3_REGION, ObjectStoreFixture.REGION);
    properties.put(UnitySettings.S3_PATH_STYLE_ACCESS, "true");
    return properties;
  }

  String sharingUri() {
    return sharing.endpoint().toString();
  }

  /** S3FileIO settings (with the store's identity) for clients reading any of the buckets. */
  Map<String, String> clientFileIoProperties() {
    Map<String, String> properties = new HashMap<>(objects.s3FileIoProperties());
    properties.put("io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
    return properties;
  }

  /** The store's identity vended for the Iceberg warehouse, valid for an hour. */
  private CredentialVendingFilter.Vended storeSession() {
    Map<String, String> session = new HashMap<>();
    session.put("s3.access-key-id", objects.accessKeyId());
    session.put("s3.secret-access-key", objects.secretAccessKey());
    session.put("s3.session-token", "fixture-store-session");
    session.put("s3.session-token-expires-at-ms",
        Long.toString(System.currentTimeMillis() + 3_600_000L));
    return new CredentialVendingFilter.Vended(List.of(
        new CredentialVendingFilter.StorageCredential(iceberg.warehouse(), session)), Map.of());
  }

  // ---- Iceberg REST: seeded once, then saved and restored as rows and objects ----

  /**
   * Beyond {@link IcebergRestFixture#seed()}: {@code sales.orders} gets two snapshots of real
   * Parquet files (validates clean); {@code sales.emea.customers} and a new {@code sales.returns}
   * get one each whose file is then deleted (each fails validation with one error).
   */
  private void seedIcebergSnapshots() throws IOException {
    TableIdentifier orders = TableIdentifier.of("sales", "orders");
    append(orders, 1, 3);
    append(orders, 4, 2);
    deleteObject(append(TableIdentifier.of("sales", "emea", "customers"), 1, 2).location());
    iceberg.backingCatalog().createTable(TableIdentifier.of("sales", "returns"),
        IcebergRestFixture.ORDERS_SCHEMA);
    deleteObject(append(TableIdentifier.of("sales", "returns"), 1, 1).location());
  }

  /** One upstream commit of a Parquet file with {@code count} orders from {@code first}. */
  private DataFile append(TableIdentifier ident, int first, int count) throws IOException {
    try (RESTCatalog client = iceberg.newClient()) {
      Table table = client.loadTable(ident);
      List<Record> rows = new ArrayList<>();
      for (int i = first; i < first + count; i++) {
        Record row = GenericRecord.create(table.schema());
        row.setField("order_id", (long) i);
        row.setField("customer", "customer-" + (i % 2));
        row.setField("amount", new BigDecimal(i + "0.25"));
        rows.add(row);
      }
      return ParquetAppend.commit(table, "orders-" + first + ".parquet", null, rows);
    }
  }

  private void deleteObject(String location) {
    URI uri = URI.create(location);
    try (S3Client s3 = objects.newClient()) {
      s3.deleteObject(b -> b.bucket(uri.getHost()).key(uri.getPath().substring(1)));
    }
  }

  /** Every row of every table of the Iceberg catalog's database, as JSON. */
  private ObjectNode icebergRows() throws SQLException {
    ObjectNode out = JSON.createObjectNode();
    try (Connection c = DriverManager.getConnection(jdbcUrl);
        Statement s = c.createStatement();
        ResultSet tables = s.executeQuery("SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES "
            + "WHERE TABLE_SCHEMA = 'PUBLIC' ORDER BY TABLE_NAME")) {
      List<String> names = new ArrayList<>();
      while (tables.next()) {
        names.add(tables.getString(1));
      }
      for (String name : names) {
        ArrayNode rows = out.putArray(name);
        try (Statement q = c.createStatement();
            ResultSet r = q.executeQuery("SELECT * FROM \"" + name + "\"")) {
          ResultSetMetaData meta = r.getMetaData();
          List<ObjectNode> sorted = new ArrayList<>();
          while (r.next()) {
            ObjectNode row = JSON.createObjectNode();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
              row.put(meta.getColumnName(i), r.getString(i));
            }
            sorted.add(row);
          }
          sorted.sort((a, b) -> a.toString().compareTo(b.toString()));
          sorted.forEach(rows::add);
        }
      }
    }
    return out;
  }

  /** Inserts the saved rows into the (freshly initialized, empty) catalog tables. */
  private void restoreIcebergRows(Path file) throws IOException, SQLException {
    JsonNode saved = JSON.readTree(file.toFile());
    try (Connection c = DriverManager.getConnection(jdbcUrl)) {
      for (Iterator<Map.Entry<String, JsonNode>> it = saved.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> table = it.next();
        for (JsonNode row : table.getValue()) {
          List<String> columns = new ArrayList<>();
          row.fieldNames().forEachRemaining(columns::add);
          String sql = "INSERT INTO \"" + table.getKey() + "\" (\""
              + String.join("\", \"", columns) + "\") VALUES ("
              + String.join(", ", columns.stream().map(col -> "?").toList()) + ")";
          try (PreparedStatement insert = c.prepareStatement(sql)) {
            for (int i = 0; i < columns.size(); i++) {
              JsonNode value = row.get(columns.get(i));
              insert.setString(i + 1, value.isNull() ? null : value.asText());
            }
            insert.executeUpdate();
          }
        }
      }
    }
  }

  // ---- Unity and Delta Sharing: fixed content in code ----

  /** A fixed Unity table id, derived from the table's name. */
  static String unityId(String name) {
    return UUID.nameUUIDFromBytes(("fixture-store/unity/" + name)
        .getBytes(StandardCharsets.UTF_8)).toString();
  }

  /**
   * {@code main.bronze}: {@code events} (a Delta log of two commits, partitioned by region, the
   * newer adding {@code amount}), {@code sessions} (nested types, one commit), {@code nolog} (no
   * log: Unity's columns are used), and the view {@code recent_events}.
   */
  private void unityContent() {
    unity.addTable(UNITY_CATALOG, "bronze", "events", "EXTERNAL", "DELTA", lake("bronze/events"),
        columns("id", "long", "region", "string"), unityId("events"));
    unity.addTable(UNITY_CATALOG, "bronze", "sessions", "EXTERNAL", "DELTA",
        lake("bronze/sessions"), columns("id", "long", "device", "struct<os:string,version:int>",
            "tags", "array<string>", "attributes", "map<string,bigint>"), unityId("sessions"));
    unity.addTable(UNITY_CATALOG, "bronze", "nolog", "EXTERNAL", "DELTA", lake("bronze/nolog"),
        columns("id", "long", "day", "date"), unityId("nolog"));
    unity.partitionBy(UNITY_CATALOG, "bronze", "nolog", List.of("day"));
    unity.addView(UNITY_CATALOG, "bronze", "recent_events",
        "SELECT * FROM main.bronze.events WHERE id > 10",
        columns("id", "long", "region", "string"), unityId("recent_events"));
  }

  /** The Delta logs of the Unity tables (written once; saved and restored as objects). */
  private void writeDeltaLogs() {
    try (S3Client s3 = objects.newClient()) {
      DeltaLogWriter log = new DeltaLogWriter(s3, LAKE);
      log.commitSchema("bronze/events", 0, columns("id", "long", "region", "string"),
          List.of("region"));
      log.commitSchema("bronze/events", 1,
          columns("id", "long", "region", "string", "amount", "double"), List.of("region"));
      // DeltaLogWriter writes primitive types only: the nested commit is written here.
      String commit = "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":2}}\n"
          + JSON.createObjectNode().set("metaData", JSON.createObjectNode()
              .put("id", unityId("sessions"))
              .<ObjectNode>set("format", JSON.createObjectNode().put("provider", "parquet")
                  .set("options", JSON.createObjectNode()))
              .put("schemaString", NESTED_SCHEMA)
              .<ObjectNode>set("partitionColumns", JSON.createArrayNode())
              .<ObjectNode>set("configuration", JSON.createObjectNode())
              .put("createdTime", 1_700_000_000_000L)) + "\n"
          + "{\"commitInfo\":{\"operation\":\"WRITE\"}}\n";
      s3.putObject(b -> b.bucket(LAKE).key("bronze/sessions/_delta_log/"
          + String.format("%020d", 0) + ".json"), RequestBody.fromString(commit));
    }
  }

  /**
   * Share {@code partners}, schema {@code feeds}: {@code trades} (version 7, partitioned by day),
   * {@code quotes} (version 0), {@code positions} (nested types, version 3).
   */
  private void sharingContent() {
    sharing.acceptToken(SHARING_TOKEN);
    sharing.put("partners", "feeds", "trades", new DeltaSharingFixture.Table("t-trades",
        lake("shared/trades"), List.of("dir"), 7, FLAT_SCHEMA, true, List.of("day")));
    sharing.put("partners", "feeds", "quotes", new DeltaSharingFixture.Table("t-quotes",
        lake("shared/quotes"), List.of("dir"), 0, FLAT_SCHEMA, true));
    sharing.put("partners", "feeds", "positions", new DeltaSharingFixture.Table("t-positions",
        lake("shared/positions"), List.of("dir"), 3, NESTED_SCHEMA, true));
  }

  private static String lake(String path) {
    return "s3://" + LAKE + "/" + path;
  }

  /** Name, type, name, type, ... in order. */
  private static Map<String, String> columns(String... nameType) {
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < nameType.length; i += 2) {
      out.put(nameType[i], nameType[i + 1]);
    }
    return out;
  }

  // ---- saving and restoring ----

  /**
   * Writes the Iceberg catalog's rows ({@value #ICEBERG_ROWS_FILE}) and every object of every
   * bucket ({@value #OBJECTS_DIR}{@code /BUCKET/KEY}) under {@code dir}.
   */
  void save(Path dir) throws IOException, SQLException {
    Files.createDirectories(dir);
    JSON.writeValue(dir.resolve(ICEBERG_ROWS_FILE).toFile(), icebergRows());
    try (S3Client s3 = objects.newClient()) {
      for (var bucket : s3.listBuckets().buckets()) {
        for (S3Object object : s3.listObjectsV2Paginator(b -> b.bucket(bucket.name()))
            .contents()) {
          Path file = dir.resolve(OBJECTS_DIR).resolve(bucket.name()).resolve(object.key());
          Files.createDirectories(file.getParent());
          Files.write(file, s3.getObjectAsBytes(b -> b.bucket(bucket.name())
              .key(object.key())).asByteArray());
        }
      }
    }
  }

  private void restoreObjects(Path dir) throws IOException {
    try (S3Client s3 = objects.newClient(); Stream<Path> buckets = Files.list(dir)) {
      for (Path bucket : buckets.sorted().toList()) {
        String name = bucket.getFileName().toString();
        if (s3.listBuckets().buckets().stream().noneMatch(b -> b.name().equals(name))) {
          s3.createBucket(b -> b.bucket(name));
        }
        try (Stream<Path> files = Files.walk(bucket)) {
          for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
            String key = bucket.relativize(file).toString().replace(file.getFileSystem()
                .getSeparator(), "/");
            s3.putObject(b -> b.bucket(name).key(key), RequestBody.fromFile(file));
          }
        }
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  @Override
  public void close() throws Exception {
    try {
      sharing.close();
      unity.close();
      iceberg.close();
    } finally {
      objects.close();
    }
  }
}
