package io.icegate.access.deltasharing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.client.CatalogClientFactory;
import io.icegate.access.connection.CatalogAuthentication;
import io.icegate.access.connection.CatalogAuthenticationScheme;
import io.icegate.access.connection.CatalogConnectionConfig;
import io.icegate.access.connection.CatalogProtocol;
import io.icegate.access.connection.ResolvedCatalogCredentials;
import io.icegate.access.delta.fixture.DeltaSchemaSamples;
import io.icegate.access.deltasharing.fixture.DeltaSharingFixture;
import io.icegate.access.model.CatalogObjectKind;
import io.icegate.access.model.CatalogObjectRef;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.model.TableFormat;
import io.icegate.access.model.UpstreamTable;
import io.icegate.access.network.OutboundAddressPolicy;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.SortOrderParser;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Discovery, metadata and authentication against the loopback Delta Sharing fixture. */
class DeltaSharingDiscoveryTest {

  static final String SCHEMA =
      "{\"type\":\"struct\",\"fields\":["
          + "{\"name\":\"id\",\"type\":\"long\",\"nullable\":false,\"metadata\":{}},"
          + "{\"name\":\"tags\",\"type\":{\"type\":\"array\",\"elementType\":\"string\",\"containsNull\":true},\"nullable\":true,\"metadata\":{}},"
          + "{\"name\":\"amount\",\"type\":\"decimal(10,2)\",\"nullable\":true,\"metadata\":{}}]}";

  static final String PARTITIONED_SCHEMA =
      "{\"type\":\"struct\",\"fields\":["
          + "{\"name\":\"id\",\"type\":\"long\",\"nullable\":false,\"metadata\":{}},"
          + "{\"name\":\"region\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}},"
          + "{\"name\":\"day\",\"type\":\"date\",\"nullable\":true,\"metadata\":{}}]}";

  private static DeltaSharingFixture server;
  private static String token;

  @BeforeAll
  static void start() throws Exception {
    server = DeltaSharingFixture.start();
    token = server.issueToken();
    server.serverPageSize(2);
    for (int i = 0; i < 5; i++) {
      server.put(
          "sales",
          "emea",
          "t" + i,
          new DeltaSharingFixture.Table(
              "id-" + i, "s3://bucket/sales/emea/t" + i, List.of("dir"), 3, SCHEMA, true));
    }
    server.putSchema("sales", "apac");
    server.putSchema("marketing", "web");
    server.putSchema("finance", "ledger");
    server.put(
        "finance",
        "ledger",
        "anonymous",
        new DeltaSharingFixture.Table(null, "s3://bucket/fin/anon", null, 0, SCHEMA, true));
    server.put(
        "finance",
        "ledger",
        "by_day",
        new DeltaSharingFixture.Table(
            "id-day", "s3://bucket/fin/day", List.of("dir"), 1, PARTITIONED_SCHEMA, true,
            List.of("day", "region")));
    server.put(
        "finance",
        "ledger",
        "mapped",
        new DeltaSharingFixture.Table(
            "id-mapped", "s3://bucket/fin/mapped", List.of("dir"), 4,
            DeltaSchemaSamples.COLUMN_MAPPED, true, List.of(),
            Map.of("delta.columnMapping.mode", "name", "delta.columnMapping.maxColumnId", "20")));
    server.put(
        "finance",
        "ledger",
        "unmapped",
        new DeltaSharingFixture.Table(
            "id-unmapped", "s3://bucket/fin/unmapped", List.of("dir"), 4,
            DeltaSchemaSamples.COLUMN_MAPPED, true, List.of(), Map.of()));
    server.put(
        "finance",
        "ledger",
        "misfit",
        new DeltaSharingFixture.Table(
            "id-misfit", "s3://bucket/fin/misfit", List.of("dir"), 1, PARTITIONED_SCHEMA, true,
            List.of("country")));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static CatalogConnectionConfig config(Map<String, String> properties) {
    return new CatalogConnectionConfig(
        CatalogProtocol.DELTA_SHARING,
        server.endpoint(),
        properties,
        new CatalogAuthentication(CatalogAuthenticationScheme.BEARER, Map.of()));
  }

  static CatalogClient open(String bearer, Map<String, String> properties) {
    return CatalogClientFactory.load()
        .open(
            config(properties),
            new ResolvedCatalogCredentials(
                Map.of(ResolvedCatalogCredentials.TOKEN, bearer), Map.of(), null));
  }

  @ParameterizedTest
  @EnumSource(DeltaSharingFixture.Mode.class)
  void sharesAndSchemasMapOntoTwoNamespaceLevels(DeltaSharingFixture.Mode mode) {
    server.mode(mode);
    try (CatalogClient client = open(token, Map.of())) {
      client.validate();
      assertThat(client.listNamespaces(NamespacePath.root()))
          .containsExactly(
              NamespacePath.of("sales"),
              NamespacePath.of("marketing"),
              NamespacePath.of("finance"));
      assertThat(client.listNamespaces(NamespacePath.of("sales")))
          .containsExactly(NamespacePath.of("sales", "emea"), NamespacePath.of("sales", "apac"));
      assertThat(client.listNamespaces(NamespacePath.of("sales", "emea"))).isEmpty();
      assertThat(client.listObjects(NamespacePath.of("sales"), Set.of(CatalogObjectKind.TABLE)))
          .isEmpty();
      assertThatThrownBy(() -> client.listNamespaces(NamespacePath.of("sales", "emea", "x")))
          .isInstanceOfSatisfying(
              CatalogAccessException.class, e -> assertThat(e.code()).isEqualTo(Code.NOT_FOUND));
      assertThatThrownBy(() -> client.listNamespaces(NamespacePath.of("nope")))
          .isInstanceOfSatisfying(
              CatalogAccessException.class, e -> assertThat(e.code()).isEqualTo(Code.NOT_FOUND));
    }
  }

  @ParameterizedTest
  @EnumSource(DeltaSharingFixture.Mode.class)
  void tableListingFollowsMoreThanOnePage(DeltaSharingFixture.Mode mode) {
    server.mode(mode);
    server.clearRequests();
    try (CatalogClient client = open(token, Map.of(SharingSettings.MAX_RESULTS, "2"))) {
      List<CatalogObjectRef> tables =
          client.listObjects(NamespacePath.of("sales", "emea"), Set.of(CatalogObjectKind.TABLE));
      assertThat(tables)
          .extracting(CatalogObjectRef::name)
          .containsExactly("t0", "t1", "t2", "t3", "t4");
    }
    List<String> pages =
        server.requests().stream()
            .filter(r -> r.startsWith("GET /shares/sales/schemas/emea/tables"))
            .toList();
    assertThat(pages).hasSize(3);
    assertThat(pages.get(0)).contains("maxResults=2").doesNotContain("pageToken");
    assertThat(pages.get(1)).contains("pageToken=");
  }

  @ParameterizedTest
  @EnumSource(DeltaSharingFixture.Mode.class)
  void loadTableReadsVersionSchemaAndStableIdentity(DeltaSharingFixture.Mode mode) throws Exception {
    server.mode(mode);
    try (CatalogClient client = open(token, Map.of())) {
      UpstreamTable table = client.loadTable(NamespacePath.of("sales", "emea"), "t3");
      assertThat(table.format()).isEqualTo(TableFormat.DELTA);
      assertThat(client.upstreamCatalogName()).isEmpty(); // no views, so no default catalogs
      assertThat(table.identity().stable()).isTrue();
      assertThat(table.identity().value()).isEqualTo("share-id-sales\u001fid-3");
      assertThat(table.storageLocation()).isEqualTo("s3://bucket/sales/emea/t3");
      assertThat(table.metadataLocation())
          .isEqualTo("s3://bucket/sales/emea/t3/_delta_log/00000000000000000003.json");
      assertThat(table.properties())
          .containsEntry(DeltaSharingClient.TABLE_VERSION, "3")
          .containsEntry(DeltaSharingClient.ACCESS_MODES, "dir")
          .containsEntry("delta.appendOnly", "false");
      var schema = new ObjectMapper().readTree(table.schemaJson());
      assertThat(schema.path("type").asText()).isEqualTo("struct");
      assertThat(schema.path("fields")).hasSize(3);
      assertThat(schema.path("fields").get(0).path("required").asBoolean()).isTrue();
      assertThat(schema.path("fields").get(1).path("type").path("type").asText()).isEqualTo("list");
      assertThat(schema.path("fields").get(2).path("type").asText()).isEqualTo("decimal(10, 2)");

      UpstreamTable anonymous =
          client.loadTable(NamespacePath.of("finance", "ledger"), "anonymous");
      assertThat(anonymous.identity().stable()).isFalse();
      assertThatThrownBy(() -> client.loadTable(NamespacePath.of("sales", "emea"), "missing"))
          .isInstanceOfSatisfying(
              CatalogAccessException.class, e -> assertThat(e.code()).isEqualTo(Code.NOT_FOUND));
    }
  }

  /**
   * A shared table deleted and created anew at its path up to the version served keeps its
   * listing entry, its version and so its commit file's name; its Delta table id ({@code
   * metaData.id}) is new, and the commit identity ({@code delta.log-commit}) says so.
   */
  @ParameterizedTest
  @EnumSource(DeltaSharingFixture.Mode.class)
  void aTableCreatedAnewUpToTheServedVersionStatesAnotherCommitIdentity(
      DeltaSharingFixture.Mode mode) {
    server.mode(mode);
    DeltaSharingFixture.Table old =
        new DeltaSharingFixture.Table(
                "id-anew", "s3://bucket/fin/anew", List.of("dir"), 2, SCHEMA, true)
            .at(2, "5d1c0f3e-old");
    server.put("finance", "ledger", "anew", old);
    try (CatalogClient client = open(token, Map.of())) {
      NamespacePath ledger = NamespacePath.of("finance", "ledger");
      UpstreamTable before = client.loadTable(ledger, "anew");
      assertThat(before.properties()).containsEntry("delta.log-commit", "5d1c0f3e-old/2");
      server.put("finance", "ledger", "anew", old.at(2, "9a7b2e41-new"));
      UpstreamTable after = client.loadTable(ledger, "anew");
      assertThat(after.identity()).isEqualTo(before.identity());
      assertThat(after.metadataLocation()).isEqualTo(before.metadataLocation());
      assertThat(after.properties()).containsEntry("delta.log-commit", "9a7b2e41-new/2");
    } finally {
      server.remove("finance", "ledger", "anew");
    }
  }

  @ParameterizedTest
  @EnumSource(DeltaSharingFixture.Mode.class)
  void partitionColumnsBecomeIdentityFieldsInTheirOrderAndTheTableIsUnsortedVersionTwo(DeltaSharingFixture.Mode mode) {
    server.mode(mode);
    try (CatalogClient client = open(token, Map.of())) {
      UpstreamTable table = client.loadTable(NamespacePath.of("finance", "ledger"), "by_day");
      Schema schema = SchemaParser.fromJson(table.schemaJson());
      PartitionSpec spec = PartitionSpecParser.fromJson(schema, table.partitionSpecJson());
      assertThat(spec.fields())
          .extracting(f -> schema.findColumnName(f.sourceId()), f -> f.transform().toString())
          .containsExactly(tuple("day", "identity"), tuple("region", "identity"));
      assertThat(SortOrderParser.fromJson(schema, table.sortOrderJson()).isUnsorted()).isTrue();
      assertThat(table.formatVersion()).isEqualTo(2);
      assertThat(table.icebergTableUuid()).isEmpty();

      UpstreamTable plain = client.loadTable(NamespacePath.of("sales", "emea"), "t1");
      assertThat(
              PartitionSpecParser.fromJson(
                      SchemaParser.fromJson(plain.schemaJson()), plain.partitionSpecJson())
                  .isUnpartitioned())
          .isTrue();
    }
  }

  /**
   * The Delta toolkit's one schema mapping (issue 20). This provider's own mapping, now gone, took
   * field ids whenever a field carried one (whatever the table's mode), numbered list elements and
   * map entries from 1,000,000 and dropped column comments: such shared tables update once.
   */
  @ParameterizedTest
  @EnumSource(DeltaSharingFixture.Mode.class)
  void columnMappedTablesKeepDeltaFieldIdsNestedOnesIncluded(DeltaSharingFixture.Mode mode) {
    server.mode(mode);
    try (CatalogClient client = open(token, Map.of())) {
      Schema mapped =
          SchemaParser.fromJson(
              client.loadTable(NamespacePath.of("finance", "ledger"), "mapped").schemaJson());
      assertThat(mapped.findField("id").fieldId()).isEqualTo(7);
      assertThat(mapped.findField("id").doc()).isEqualTo("order id");
      assertThat(mapped.findField("scores").fieldId()).isEqualTo(3);
      assertThat(mapped.findField("scores.element").fieldId()).isEqualTo(10);
      assertThat(mapped.findField("scores.element.key").fieldId()).isEqualTo(11);
      assertThat(mapped.findField("scores.element.value").fieldId()).isEqualTo(12);
      assertThat(mapped.findField("tags").fieldId()).isEqualTo(4);
      // no nested id for tags' element: a fresh one above delta.columnMapping.maxColumnId
      assertThat(mapped.findField("tags.element").fieldId()).isEqualTo(21);

      // ids in field metadata without a column mapping mode are not Delta's: fresh, depth-first
      Schema unmapped =
          SchemaParser.fromJson(
              client.loadTable(NamespacePath.of("finance", "ledger"), "unmapped").schemaJson());
      assertThat(unmapped.columns())
          .extracting(Types.NestedField::fieldId)
          .containsExactly(1, 2, 3);
      assertThat(unmapped.findField("scores.element").fieldId()).isEqualTo(4);
    }
  }

  @ParameterizedTest
  @EnumSource(DeltaSharingFixture.Mode.class)
  void aPartitionColumnMissingFromTheSchemaIsAProtocolError(DeltaSharingFixture.Mode mode) {
    server.mode(mode);
    try (CatalogClient client = open(token, Map.of())) {
      assertThatThrownBy(() -> client.loadTable(NamespacePath.of("finance", "ledger"), "misfit"))
          .isInstanceOfSatisfying(
              CatalogAccessException.class,
              e -> {
                assertThat(e.code()).isEqualTo(Code.UPSTREAM_PROTOCOL_ERROR);
                assertThat(e.getMessage()).contains("finance.ledger.misfit").contains("country");
              });
    }
  }

  @ParameterizedTest
  @EnumSource(DeltaSharingFixture.Mode.class)
  void onlyBearerAuthenticationIsAccepted(DeltaSharingFixture.Mode mode) {
    server.mode(mode);
    for (CatalogAuthenticationScheme scheme :
        List.of(
            CatalogAuthenticationScheme.NONE,
            CatalogAuthenticationScheme.OAUTH2,
            CatalogAuthenticationScheme.AWS_SIGV4)) {
      CatalogConnectionConfig config =
          new CatalogConnectionConfig(
              CatalogProtocol.DELTA_SHARING,
              server.endpoint(),
              Map.of(),
              new CatalogAuthentication(scheme, Map.of()));
      assertThatThrownBy(
              () ->
                  CatalogClientFactory.load()
                      .open(
                          config,
                          new ResolvedCatalogCredentials(
                              Map.of(ResolvedCatalogCredentials.TOKEN, token), Map.of(), null)))
          .isInstanceOfSatisfying(
              CatalogAccessException.class,
              e -> {
                assertThat(e.code()).isEqualTo(Code.INVALID_CONFIGURATION);
                assertThat(e.getMessage()).contains("BEARER").doesNotContain(token);
              });
    }
    assertThatThrownBy(() -> open(token, Map.of("warehouse", "x")))
        .isInstanceOfSatisfying(
            CatalogAccessException.class,
            e -> assertThat(e.code()).isEqualTo(Code.INVALID_CONFIGURATION));
  }

  @ParameterizedTest
  @EnumSource(DeltaSharingFixture.Mode.class)
  void revokedOrUnknownTokenIsAnAuthenticationFailure(DeltaSharingFixture.Mode mode) {
    server.mode(mode);
    String doomed = server.issueToken();
    try (CatalogClient client = open(doomed, Map.of())) {
      client.validate();
      server.revoke(doomed);
      assertThatThrownBy(client::validate)
          .isInstanceOfSatisfying(
              CatalogAccessException.class,
              e -> {
                assertThat(e.code()).isEqualTo(Code.AUTHENTICATION_FAILED);
                assertThat(e.getMessage()).doesNotContain(doomed);
              });
    }
    try (CatalogClient client = open("never-issued", Map.of())) {
      assertThatThrownBy(() -> client.listNamespaces(NamespacePath.root()))
          .isInstanceOfSatisfying(
              CatalogAccessException.class,
              e -> assertThat(e.code()).isEqualTo(Code.AUTHENTICATION_FAILED));
    }
  }

  @ParameterizedTest
  @EnumSource(DeltaSharingFixture.Mode.class)
  void refusedEndpointAddressFailsBeforeAnyRequest(DeltaSharingFixture.Mode mode) {
    server.mode(mode);
    assertThatThrownBy(
            () ->
                CatalogClientFactory.load()
                    .open(
                        config(Map.of()),
                        new ResolvedCatalogCredentials(
                            Map.of(ResolvedCatalogCredentials.TOKEN, token), Map.of(), null),
                        OutboundAddressPolicy.defaults().denyLoopback()))
        .isInstanceOfSatisfying(
            CatalogAccessException.class, e -> assertThat(e.code()).isEqualTo(Code.ADDRESS_DENIED));
  }
}
