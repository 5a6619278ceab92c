package io.icegate.gateway.fixturestore;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeyValue;
import io.icegate.gateway.testing.GatewayFixture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SortOrderParser;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.view.SQLViewRepresentation;
import org.apache.iceberg.view.View;
import org.apache.iceberg.view.ViewRepresentation;

/**
 * What a gateway serves from the fixture store, as one JSON document the generator records
 * ({@code expectations.json}, member {@code served}) and the test computes again and compares:
 * read as clients read it, through iceberg-core's {@link RESTCatalog} (namespaces and their
 * properties, whether each table and view is listed, each table's metadata and rows or the error a
 * load gets, each view's versions) and the admin API's view of each Table (capture, validation,
 * visibility). Which tables and views there are is read from the store's name index, since
 * listings leave out Tables clients may not query. Everything in it comes from stored bytes and
 * the saved object-store files, so the same store serves the same document.
 */
final class ServedState {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final GatewayFixture gateway;
  private final String accountId;
  private final String token;
  private final Map<String, String> fileIo;

  /**
   * @param token an Iceberg REST token of the account
   * @param fileIo client FileIO settings reaching every bucket the tables use
   */
  ServedState(GatewayFixture gateway, String accountId, String token, Map<String, String> fileIo) {
    this.gateway = gateway;
    this.accountId = accountId;
    this.token = token;
    this.fileIo = fileIo;
  }

  /** The served state of the named Catalogs ({@code name -> id}), in name order. */
  ObjectNode of(Map<String, String> catalogs) throws IOException {
    ObjectNode out = JSON.createObjectNode();
    for (Map.Entry<String, String> catalog : new TreeMap<>(catalogs).entrySet()) {
      out.set(catalog.getKey(), catalog(catalog.getKey(), catalog.getValue()));
    }
    return out;
  }

  private ObjectNode catalog(String name, String catalogId) throws IOException {
    ObjectNode out = JSON.createObjectNode();
    ObjectNode namespaces = out.putObject("namespaces");
    ObjectNode tables = out.putObject("tables");
    ObjectNode views = out.putObject("views");
    try (RESTCatalog client = client(name)) {
      for (Namespace ns : allNamespaces(client)) {
        String key = String.join(".", ns.levels());
        namespaces.set(key, JSON.valueToTree(new TreeMap<>(client.loadNamespaceMetadata(ns))));
        List<TableIdentifier> listed = client.listTables(ns);
        for (String table : stored(catalogId, ns, ResourceKind.TABLE)) {
          TableIdentifier ident = TableIdentifier.of(ns, table);
          tables.set(ident.toString(), table(client, catalogId, ident)
              .put("listed", listed.contains(ident)));
        }
        List<TableIdentifier> listedViews = client.listViews(ns);
        for (String view : stored(catalogId, ns, ResourceKind.VIEW)) {
          TableIdentifier ident = TableIdentifier.of(ns, view);
          views.set(ident.toString(), view(client.loadView(ident))
              .put("listed", listedViews.contains(ident)));
        }
      }
    }
    return out;
  }

  private RESTCatalog client(String catalog) {
    return client(gateway, catalog, token, fileIo);
  }

  /** An iceberg-core REST client of {@code gateway}'s Catalog {@code catalog}. */
  static RESTCatalog client(GatewayFixture gateway, String catalog, String token,
      Map<String, String> fileIo) {
    Map<String, String> props = new HashMap<>(fileIo);
    props.put(CatalogProperties.URI, gateway.icebergUri());
    props.put(CatalogProperties.WAREHOUSE_LOCATION, catalog);
    props.put("token", token);
    RESTCatalog client = new RESTCatalog();
    client.initialize("fixture-" + catalog, props);
    return client;
  }

  private static List<Namespace> allNamespaces(RESTCatalog client) {
    List<Namespace> out = new ArrayList<>();
    List<Namespace> level = sortedNamespaces(client.listNamespaces(Namespace.empty()));
    while (!level.isEmpty()) {
      out.addAll(level);
      List<Namespace> next = new ArrayList<>();
      for (Namespace ns : level) {
        next.addAll(client.listNamespaces(ns));
      }
      level = sortedNamespaces(next);
    }
    out.sort((a, b) -> a.toString().compareTo(b.toString()));
    return out;
  }

  private static List<Namespace> sortedNamespaces(List<Namespace> namespaces) {
    List<Namespace> out = new ArrayList<>(namespaces);
    out.sort((a, b) -> a.toString().compareTo(b.toString()));
    return out;
  }

  /**
   * The names of the {@code kind}s the store holds in {@code ns}, read from its name index: the
   * gateway's listings leave out Tables clients may not query, which are served state as well.
   */
  private List<String> stored(String catalogId, Namespace ns, ResourceKind kind) {
    Range range = KeyLayout.names(accountId, kind,
        NameScope.inCatalog(catalogId, List.of(ns.levels()))).range();
    List<String> out = new ArrayList<>();
    gateway.gateway().store().read(tx -> {
      out.clear();
      for (KeyValue kv : tx.getRange(range.begin, range.end)) {
        Tuple key = Tuple.fromBytes(kv.key());
        out.add(key.getString(key.size() - 1));
      }
      return null;
    });
    out.sort(null);
    return out;
  }

  /**
   * A table's served metadata and rows, plus the admin API's view of it; a table the gateway
   * refuses to load (an invisible managed table) is recorded by the exception it gets.
   */
  private ObjectNode table(RESTCatalog client, String catalogId, TableIdentifier ident)
      throws IOException {
    ObjectNode out = JSON.createObjectNode();
    out.set("admin", adminView(catalogId, ident));
    Table table;
    try {
      table = client.loadTable(ident);
    } catch (RuntimeException e) {
      out.put("loadError", e.getClass().getSimpleName());
      return out;
    }
    var metadata = ((HasTableOperations) table).operations().current();
    out.put("uuid", table.uuid().toString());
    out.put("formatVersion", metadata.formatVersion());
    out.put("location", table.location());
    out.put("metadataLocation", metadata.metadataFileLocation());
    out.put("schemaId", table.schema().schemaId());
    out.set("schema", JSON.readTree(SchemaParser.toJson(table.schema())));
    out.put("schemaCount", table.schemas().size());
    out.set("spec", JSON.readTree(PartitionSpecParser.toJson(table.spec())));
    out.set("sortOrder", JSON.readTree(SortOrderParser.toJson(table.sortOrder())));
    out.set("properties", JSON.valueToTree(new TreeMap<>(table.properties())));
    Snapshot current = table.currentSnapshot();
    out.put("currentSnapshotId", current == null ? null : current.snapshotId());
    ArrayNode snapshots = out.putArray("snapshots");
    for (Snapshot s : table.snapshots()) {
      snapshots.addObject().put("id", s.snapshotId()).put("parentId", s.parentId())
          .put("sequenceNumber", s.sequenceNumber()).put("timestampMillis", s.timestampMillis())
          .put("operation", s.operation())
          .set("summary", JSON.valueToTree(new TreeMap<>(s.summary())));
    }
    List<String> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      records.forEach(r -> rows.add(r.toString()));
    } catch (org.apache.iceberg.exceptions.NotFoundException e) {
      // a data file known lost upstream (the fixture's failed validations)
      out.put("rowsError", e.getClass().getSimpleName());
      return out;
    }
    rows.sort(null);
    out.set("rows", JSON.valueToTree(rows));
    return out;
  }

  private static ObjectNode view(View view) throws IOException {
    ObjectNode out = JSON.createObjectNode();
    out.put("uuid", view.uuid().toString());
    out.put("location", view.location());
    out.put("currentVersionId", view.currentVersion().versionId());
    int versions = 0;
    for (var ignored : view.versions()) {
      versions++;
    }
    out.put("versionCount", versions);
    out.set("schema", JSON.readTree(SchemaParser.toJson(view.schema())));
    out.set("defaultNamespace",
        JSON.valueToTree(List.of(view.currentVersion().defaultNamespace().levels())));
    out.put("defaultCatalog", view.currentVersion().defaultCatalog());
    ObjectNode sql = out.putObject("sql");
    for (ViewRepresentation r : view.currentVersion().representations()) {
      if (r instanceof SQLViewRepresentation s) {
        sql.put(s.dialect(), s.sql());
      }
    }
    out.set("properties", JSON.valueToTree(new TreeMap<>(view.properties())));
    return out;
  }

  /**
   * The stored state the admin API shows of a Table: whether it is managed, its capture,
   * validation and visibility override, and whether it is visible. (Display text such as the
   * visibility reason is left out: it is not stored.)
   */
  private ObjectNode adminView(String catalogId, TableIdentifier ident) throws IOException {
    String base = "/admin/v1/accounts/" + accountId + "/catalogs/" + catalogId + "/tables";
    String namespace = URLEncoder.encode(String.join("\u001f", ident.namespace().levels()),
        StandardCharsets.UTF_8);
    JsonNode found = ok(gateway.send("GET", base + "?namespace=" + namespace + "&name="
        + URLEncoder.encode(ident.name(), StandardCharsets.UTF_8), null));
    if (found.get("items").size() != 1) {
      throw new AssertionError("admin table listing of " + ident + ": " + found);
    }
    JsonNode table = ok(gateway.send("GET",
        base + "/" + found.get("items").get(0).get("id").asText(), null));
    ObjectNode out = JSON.createObjectNode();
    for (String member : List.of("managed", "capture", "validation", "visibilityOverride",
        "visible")) {
      out.set(member, table.get(member));
    }
    return out;
  }

  private static JsonNode ok(HttpResponse<String> response) {
    if (response.statusCode() / 100 != 2) {
      throw new AssertionError(response.statusCode() + " " + response.body());
    }
    try {
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
