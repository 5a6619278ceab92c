package io.icegate.gateway.catalog;

import static io.icegate.gateway.testing.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.Provenance;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.repo.ChangeKind;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.KvStore;
import io.icegate.gateway.fileio.LocalFileIO;
import io.icegate.gateway.testing.GatewayFixture;
import io.icegate.overlay.store.OverlayStore;
import io.icegate.overlay.store.claim.NamespaceClaims;
import io.icegate.overlay.store.relation.ManagedRelations;
import io.icegate.overlay.store.relation.TableDefinition;
import io.icegate.overlay.store.relation.ViewDefinition;
import io.icegate.overlay.store.testing.ContributionInvariants;
import io.icegate.overlay.store.validation.TableValidations;
import java.io.File;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.NullOrder;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.SortOrderParser;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.view.SQLViewRepresentation;
import org.apache.iceberg.view.View;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Managed (overlay-materialized) Tables and Views through the Iceberg REST surface, with
 * iceberg-core's RESTCatalog and raw HTTP against a started gateway: served read-only from their
 * stored definitions, every direct write refused with 403 naming the Overlay, local relations of
 * the same claimed Namespace writable, the claimed Namespace undroppable (409).
 *
 * <p>The managed relations are published in the setup directly through core's storage API, in one
 * store transaction each, as the reconciler does (claim, Table/View record with provenance,
 * chunked definition, managed index). This stands in for the reconciler, which is being written
 * separately; the Integration points at an unreachable upstream, so any upstream call from the
 * gateway would fail these tests.
 */
class ManagedRelationsGatewayTest {
  private static final ManagedRelations MANAGED = new ManagedRelations();
  private static final Namespace FED = Namespace.of("fed");
  private static final TableIdentifier ORDERS = TableIdentifier.of(FED, "orders");
  private static final TableIdentifier CUSTOMERS = TableIdentifier.of(FED, "customers");
  private static final TableIdentifier REPORT = TableIdentifier.of(FED, "report");
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "region", Types.StringType.get()),
      Types.NestedField.optional(3, "ts", Types.TimestampType.withZone()));
  private static final PartitionSpec SPEC =
      PartitionSpec.builderFor(SCHEMA).identity("region").day("ts").build();
  private static final SortOrder ORDER =
      SortOrder.builderFor(SCHEMA).asc("id").desc("ts", NullOrder.NULLS_LAST).build();
  private static final Schema VIEW_SCHEMA =
      new Schema(Types.NestedField.required(1, "total", Types.LongType.get()));
  private static final String SPARK_SQL = "SELECT count(*) AS total FROM fed.orders";
  private static final String TRINO_SQL = "SELECT count(*) AS \"total\" FROM \"fed\".\"orders\"";

  private static GatewayFixture gateway;
  private static RESTCatalog catalog;
  private static Repositories repos;
  private static String prefix;
  private static String account;
  private static String integrationId;
  private static String overlayId;

  @BeforeAll
  static void start() throws Exception {
    gateway = GatewayFixture.start();
    catalog = gateway.client();
    prefix = gateway.prefix(); // the Catalog's id
    repos = OverlayStore.repositories(store(), Clock.systemUTC());
    account = gateway.defaultAccountId();
    String base = "/admin/v1/accounts/" + account;
    integrationId = created(gateway.send("POST", base + "/integrations",
        "{\"displayName\":\"upstream\",\"type\":\"ICEBERG_REST\","
            + "\"uri\":\"https://unreachable.example.com/v1\","
            + "\"authentication\":{\"type\":\"bearer\",\"token\":\"tok\"}}"));
    overlayId = created(gateway.send("POST", base + "/overlays",
        "{\"displayName\":\"sales\",\"integrationId\":\"" + integrationId
            + "\",\"catalogId\":\"" + prefix + "\",\"includeNamespaces\":[[\"fed\"]]}"));

    String namespaceId = store().run(tx -> {
      String id = repos.namespaces(account)
          .create(tx, new io.icegate.core.model.Namespace(prefix, List.of("fed"), Map.of()))
          .id();
      new NamespaceClaims().claim(tx, account, id, overlayId, true);
      return id;
    });
    publishTable("orders", tableDefinition(SCHEMA, SPEC, ORDER));
    publishTable("customers", tableDefinition(SCHEMA, PartitionSpec.unpartitioned(),
        SortOrder.unsorted()));
    publishView("report", new ViewDefinition(UUID.randomUUID().toString(),
        "s3://upstream-bucket/sales/report", SchemaParser.toJson(VIEW_SCHEMA),
        List.of(new ViewDefinition.Representation("spark", SPARK_SQL),
            new ViewDefinition.Representation("trino", TRINO_SQL)),
        List.of("fed"), null, Map.of("comment", "daily totals")));
    assertThat(namespaceId).isNotBlank();
  }

  @AfterAll
  static void stop() throws Exception {
    ContributionInvariants.checker(store()).assertClean();
    catalog.close();
    gateway.close();
  }

  // ---- reads --------------------------------------------------------------------------------

  @Test
  void listsTheClaimedNamespaceAndItsManagedRelations() {
    assertThat(catalog.listNamespaces()).contains(FED);
    assertThat(catalog.listTables(FED)).contains(ORDERS, CUSTOMERS);
    assertThat(catalog.listViews(FED)).contains(REPORT);
    assertThat(catalog.tableExists(ORDERS)).isTrue();
    assertThat(catalog.viewExists(REPORT)).isTrue();
  }

  @Test
  void loadsAManagedTableFromItsDefinition() throws Exception {
    Table table = catalog.loadTable(ORDERS);
    assertThat(table.schema().sameSchema(SCHEMA)).isTrue();
    assertThat(table.spec().fields()).hasSize(2);
    assertThat(table.spec().fields().get(0).transform().toString()).isEqualTo("identity");
    assertThat(table.spec().fields().get(1).transform().toString()).isEqualTo("day");
    assertThat(table.sortOrder().fields()).hasSize(2);
    assertThat(table.sortOrder().fields().get(1).nullOrder()).isEqualTo(NullOrder.NULLS_LAST);
    assertThat(table.location()).isEqualTo("s3://upstream-bucket/sales/orders");
    assertThat(table.properties()).containsEntry("owner", "upstream-team");
    assertThat(table.currentSnapshot()).isNull();
    // scan planning reports metrics to the gateway; an empty table plans nothing
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      assertThat(tasks).isEmpty();
    }

    for (String mode : List.of("all", "refs")) {
      HttpResponse<String> r = gateway.send("GET", tablePath(ORDERS) + "?snapshots=" + mode, null);
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      JsonNode body = json(r);
      assertThat(body.path("metadata-location").isMissingNode()
          || body.get("metadata-location").isNull()).as(r.body()).isTrue();
      assertThat(body.get("metadata").get("snapshots").size()).isZero();
      String etag = r.headers().firstValue("ETag").orElseThrow();
      assertThat(gateway.send("GET", tablePath(ORDERS) + "?snapshots=" + mode, null,
          "If-None-Match", etag).statusCode()).isEqualTo(304);
    }
    assertThat(gateway.send("HEAD", tablePath(ORDERS), null).statusCode()).isEqualTo(204);
  }

  @Test
  void aRepublishedDefinitionChangesTheETagAndTheServedSchema() throws Exception {
    HttpResponse<String> before = gateway.send("GET", tablePath(CUSTOMERS), null);
    String etag = before.headers().firstValue("ETag").orElseThrow();
    Schema wider = new Schema(
        Types.NestedField.required(1, "id", Types.LongType.get()),
        Types.NestedField.optional(2, "region", Types.StringType.get()),
        Types.NestedField.optional(3, "ts", Types.TimestampType.withZone()),
        Types.NestedField.optional(4, "email", Types.StringType.get()));
    byte[] definition =
        tableDefinition(wider, PartitionSpec.unpartitioned(), SortOrder.unsorted()).toBytes();
    store().run(tx -> {
      Resource<io.icegate.core.model.Table> current = repos.tables(account)
          .getByName(tx, NameScope.inCatalog(prefix, List.of("fed")), "customers").orElseThrow();
      Provenance p = current.spec().provenance();
      MANAGED.writeDefinition(tx, account, ResourceKind.TABLE, current.id(), definition);
      repos.tables(account).update(tx, current.id(), ExpectedGeneration.of(current.generation()),
          new io.icegate.core.model.Table(prefix, List.of("fed"), "customers", null, Map.of(),
              new Provenance(p.integrationId(), p.overlayId(), p.externalId(), p.identityStable(),
                  p.upstreamNamespace(), p.upstreamName(), p.tableFormat(),
                  p.upstreamMetadataLocation(), ManagedRelations.digest(definition))),
          ChangeKind.METADATA);
      return null;
    });
    HttpResponse<String> after = gateway.send("GET", tablePath(CUSTOMERS), null,
        "If-None-Match", etag);
    assertThat(after.statusCode()).isEqualTo(200);
    assertThat(after.headers().firstValue("ETag").orElseThrow()).isNotEqualTo(etag);
    assertThat(catalog.loadTable(CUSTOMERS).schema().findField("email")).isNotNull();
  }

  @Test
  void loadsAManagedViewCompletelyWithBothDialects() {
    View view = catalog.loadView(REPORT);
    assertThat(view.schema().sameSchema(VIEW_SCHEMA)).isTrue();
    assertThat(((SQLViewRepresentation) view.sqlFor("spark")).sql()).isEqualTo(SPARK_SQL);
    assertThat(((SQLViewRepresentation) view.sqlFor("trino")).sql()).isEqualTo(TRINO_SQL);
    assertThat(view.currentVersion().representations()).hasSize(2);
    assertThat(view.currentVersion().defaultNamespace()).isEqualTo(FED);
    assertThat(view.currentVersion().defaultCatalog()).isNull();
    assertThat(view.properties()).containsEntry("comment", "daily totals");
    long updatedAt = repos.views(account)
        .getByName(NameScope.inCatalog(prefix, List.of("fed")), "report").orElseThrow()
        .updatedAt().toEpochMilli();
    assertThat(view.currentVersion().timestampMillis()).isEqualTo(updatedAt);
  }

  // ---- writes refused -----------------------------------------------------------------------

  @Test
  void everyWriteOfAManagedTableIs403NamingTheOverlay() {
    long before = writes();
    Table table = catalog.loadTable(ORDERS);
    assertForbidden(() -> table.updateProperties().set("k", "v").commit());
    // metadata-only commits: a data commit would fail in the client writing to upstream storage
    assertForbidden(() -> table.updateSchema().addColumn("extra", Types.IntegerType.get())
        .commit());
    assertForbidden(() -> table.replaceSortOrder().asc("region").commit());
    assertForbidden(() -> catalog.dropTable(ORDERS, false));
    assertForbidden(() -> catalog.dropTable(ORDERS, true));
    assertForbidden(() -> catalog.renameTable(ORDERS, TableIdentifier.of(FED, "orders2")));
    String elsewhere = "file:" + gateway.dataDir().toAbsolutePath() + "/any.metadata.json";
    assertForbidden(() -> catalog.registerTable(ORDERS, elsewhere));
    assertThat(writes()).isEqualTo(before);

    // a taken name is taken: creating over it is the ordinary 409
    assertThatThrownBy(() -> catalog.createTable(ORDERS, SCHEMA))
        .isInstanceOf(AlreadyExistsException.class);
    assertThatThrownBy(() -> catalog.buildTable(ORDERS, SCHEMA).createTransaction())
        .isInstanceOf(AlreadyExistsException.class);
    assertThatThrownBy(() -> catalog.buildView(ORDERS).withSchema(VIEW_SCHEMA)
        .withDefaultNamespace(FED).withQuery("spark", SPARK_SQL).create())
        .isInstanceOf(AlreadyExistsException.class);
    assertThat(writes()).isEqualTo(before);
    assertThat(catalog.loadTable(ORDERS).properties()).doesNotContainKey("k");
  }

  @Test
  void everyWriteOfAManagedViewIs403NamingTheOverlay() {
    long before = writes();
    assertForbidden(() -> catalog.buildView(REPORT).withSchema(VIEW_SCHEMA)
        .withDefaultNamespace(FED).withQuery("spark", "SELECT 1 AS total")
        .withQuery("trino", "SELECT 1 AS total").replace());
    assertForbidden(() -> catalog.loadView(REPORT).updateProperties().set("k", "v").commit());
    assertForbidden(() -> catalog.dropView(REPORT));
    assertForbidden(() -> catalog.renameView(REPORT, TableIdentifier.of(FED, "report2")));
    assertThatThrownBy(() -> catalog.buildView(REPORT).withSchema(VIEW_SCHEMA)
        .withDefaultNamespace(FED).withQuery("spark", SPARK_SQL).create())
        .isInstanceOf(AlreadyExistsException.class);
    assertThatThrownBy(() -> catalog.createTable(REPORT, SCHEMA))
        .isInstanceOf(AlreadyExistsException.class);
    assertThat(writes()).isEqualTo(before);
    assertThat(((SQLViewRepresentation) catalog.loadView(REPORT).sqlFor("spark")).sql())
        .isEqualTo(SPARK_SQL);
  }

  @Test
  void aTransactionTouchingOneManagedTableWritesNothing() throws Exception {
    TableIdentifier local = TableIdentifier.of(FED, "local_tx");
    Table table = catalog.createTable(local, SCHEMA);
    File metadataDir = new File(URI.create(table.location() + "/metadata"));
    int filesBefore = Objects.requireNonNull(metadataDir.list()).length;
    long before = writes();
    String body = "{\"table-changes\":[" + setProperty(local) + "," + setProperty(ORDERS) + "]}";
    HttpResponse<String> r =
        gateway.send("POST", "/iceberg/v1/" + prefix + "/transactions/commit", body);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(403);
    assertThat(json(r).get("error").get("type").asText()).isEqualTo("ForbiddenException");
    assertThat(json(r).get("error").get("message").asText()).contains(overlayId);
    assertThat(writes()).isEqualTo(before);
    assertThat(metadataDir.list()).hasSize(filesBefore);
    assertThat(catalog.loadTable(local).properties()).doesNotContainKey("k");

    // the same change without the managed table commits
    r = gateway.send("POST", "/iceberg/v1/" + prefix + "/transactions/commit",
        "{\"table-changes\":[" + setProperty(local) + "]}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
    assertThat(catalog.loadTable(local).properties()).containsEntry("k", "v");
    assertThat(catalog.dropTable(local)).isTrue();
  }

  /**
   * The refusal is made in the writing transaction, not only from what the writer loaded: a table
   * that becomes managed between a writer's load and its commit is refused (403) and the writer's
   * staged metadata file is removed. Driven in-process on the adapter, since over HTTP every
   * request loads afresh and is refused before staging.
   */
  @Test
  void aTableBecomingManagedAfterTheWritersLoadIsRefusedInTheWritingTransaction() {
    TableIdentifier ident = TableIdentifier.of(FED, "adopted");
    Table local = catalog.createTable(ident, SCHEMA);
    File metadataDir = new File(URI.create(local.location() + "/metadata"));
    int filesBefore = Objects.requireNonNull(metadataDir.list()).length;
    RepositoryCatalog adapter = new RepositoryCatalog(repos,
        repos.catalogs(account).get(prefix).orElseThrow(), new LocalFileIO(),
        new MetadataCache(10));
    org.apache.iceberg.TableOperations ops = adapter.newTableOps(ident);
    org.apache.iceberg.TableMetadata base = ops.current();
    org.apache.iceberg.TableMetadata updated = org.apache.iceberg.TableMetadata.buildFrom(base)
        .setProperties(new HashMap<>(Map.of("k", "v"))).build();

    byte[] definition = tableDefinition(SCHEMA, PartitionSpec.unpartitioned(),
        SortOrder.unsorted()).toBytes();
    store().run(tx -> {
      Resource<io.icegate.core.model.Table> current = repos.tables(account)
          .getByName(tx, NameScope.inCatalog(prefix, List.of("fed")), "adopted").orElseThrow();
      repos.tables(account).update(tx, current.id(), ExpectedGeneration.of(current.generation()),
          new io.icegate.core.model.Table(prefix, List.of("fed"), "adopted", null, Map.of(),
              provenance("adopted-uuid", "adopted", "ICEBERG", null, definition)),
          ChangeKind.METADATA);
      MANAGED.writeDefinition(tx, account, ResourceKind.TABLE, current.id(), definition);
      MANAGED.index(tx, account, overlayId, ResourceKind.TABLE, "adopted-uuid", current.id());
      new TableValidations(repos).setOverride(tx, account, current.id(), "adopted in a test");
      return null;
    });
    long before = writes();
    assertForbidden(() -> ops.commit(base, updated));
    assertThat(writes()).isEqualTo(before);
    assertThat(metadataDir.list()).hasSize(filesBefore);
    assertThat(catalog.loadTable(ident).properties()).doesNotContainKey("k");
  }

  // ---- local content and the claimed namespace ----------------------------------------------

  @Test
  void localRelationsInTheClaimedNamespaceStayWritable() {
    TableIdentifier local = TableIdentifier.of(FED, "local_events");
    Table table = catalog.createTable(local, SCHEMA, PartitionSpec.unpartitioned());
    table.newFastAppend().appendFile(dataFile(table)).commit();
    assertThat(catalog.loadTable(local).currentSnapshot()).isNotNull();
    TableIdentifier renamed = TableIdentifier.of(FED, "local_events2");
    catalog.renameTable(local, renamed);
    // renaming a local table onto a managed name follows the ordinary rule
    assertThatThrownBy(() -> catalog.renameTable(renamed, ORDERS))
        .isInstanceOf(AlreadyExistsException.class);
    assertThat(catalog.dropTable(renamed, true)).isTrue();

    TableIdentifier localView = TableIdentifier.of(FED, "local_view");
    catalog.buildView(localView).withSchema(VIEW_SCHEMA).withDefaultNamespace(FED)
        .withQuery("spark", SPARK_SQL).create();
    catalog.buildView(localView).withSchema(VIEW_SCHEMA).withDefaultNamespace(FED)
        .withQuery("spark", "SELECT 2 AS total").replace();
    assertThat(catalog.dropView(localView)).isTrue();
  }

  @Test
  void droppingTheClaimedNamespaceIs409NamingTheOverlay() {
    long before = writes();
    HttpResponse<String> r = gateway.send("DELETE", "/iceberg/v1/" + prefix + "/namespaces/fed",
        null);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(409);
    assertThat(json(r).get("error").get("message").asText()).contains(overlayId);
    assertThatThrownBy(() -> catalog.dropNamespace(FED)).hasMessageContaining(overlayId);
    assertThat(writes()).isEqualTo(before);
    assertThat(catalog.namespaceExists(FED)).isTrue();
  }

  // ---- fixture ------------------------------------------------------------------------------

  private static KvStore store() {
    return gateway.gateway().store();
  }

  private static long writes() {
    return store().stats().committedWrites();
  }

  private static void assertForbidden(Runnable write) {
    assertThatThrownBy(write::run)
        .isInstanceOf(ForbiddenException.class)
        .hasMessageContaining("managed by overlay " + overlayId);
  }

  private static String tablePath(TableIdentifier ident) {
    return "/iceberg/v1/" + prefix + "/namespaces/" + ident.namespace() + "/tables/"
        + ident.name();
  }

  private static String setProperty(TableIdentifier ident) {
    return "{\"identifier\":{\"namespace\":[\"" + ident.namespace() + "\"],\"name\":\""
        + ident.name() + "\"},\"requirements\":[],"
        + "\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"k\":\"v\"}}]}";
  }

  private static DataFile dataFile(Table table) {
    return DataFiles.builder(table.spec())
        .withPath(table.location() + "/data/f1.parquet")
        .withFileSizeInBytes(100)
        .withRecordCount(3)
        .build();
  }

  private static TableDefinition tableDefinition(
      Schema schema, PartitionSpec spec, SortOrder order) {
    return new TableDefinition(2, UUID.randomUUID().toString(),
        "s3://upstream-bucket/sales/orders", SchemaParser.toJson(schema),
        PartitionSpecParser.toJson(spec), SortOrderParser.toJson(order),
        new HashMap<>(Map.of("owner", "upstream-team")), "ICEBERG",
        "s3://upstream-bucket/sales/orders/metadata/00003-x.metadata.json");
  }

  /** What the reconciler's publication does for one Table, in one store transaction. */
  private static void publishTable(String name, TableDefinition definition) {
    byte[] bytes = definition.toBytes();
    String externalId = definition.tableUuid();
    store().run(tx -> {
      Resource<io.icegate.core.model.Table> table = repos.tables(account).create(tx,
          new io.icegate.core.model.Table(prefix, List.of("fed"), name, null, Map.of(),
              provenance(externalId, name, "ICEBERG", definition.upstreamMetadataLocation(),
                  bytes)));
      MANAGED.writeDefinition(tx, account, ResourceKind.TABLE, table.id(), bytes);
      MANAGED.index(tx, account, overlayId, ResourceKind.TABLE, externalId, table.id());
      // Never captured nor validated, so visible to clients only by override (issue 10).
      new TableValidations(repos).setOverride(tx, account, table.id(), "definition-only test");
      return null;
    });
  }

  /** What the reconciler's publication does for one View, in one store transaction. */
  private static void publishView(String name, ViewDefinition definition) {
    byte[] bytes = definition.toBytes();
    String externalId = definition.viewUuid();
    store().run(tx -> {
      Resource<io.icegate.core.model.View> view = repos.views(account).create(tx,
          new io.icegate.core.model.View(prefix, List.of("fed"), name, null, Map.of(),
              provenance(externalId, name, null, null, bytes)));
      MANAGED.writeDefinition(tx, account, ResourceKind.VIEW, view.id(), bytes);
      MANAGED.index(tx, account, overlayId, ResourceKind.VIEW, externalId, view.id());
      return null;
    });
  }

  private static Provenance provenance(
      String externalId, String name, String format, String upstreamMetadata, byte[] bytes) {
    return new Provenance(integrationId, overlayId, externalId, true, List.of("fed"), name,
        format, upstreamMetadata, ManagedRelations.digest(bytes));
  }

  private static String created(HttpResponse<String> r) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    return json(r).get("id").asText();
  }
}
