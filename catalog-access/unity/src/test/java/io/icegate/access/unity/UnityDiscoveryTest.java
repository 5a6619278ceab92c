package io.icegate.access.unity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.model.CatalogObjectKind;
import io.icegate.access.model.CatalogObjectRef;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.model.UpstreamTable;
import io.icegate.access.model.UpstreamView;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Discovery rules of seed 001 "Unity Catalog slice" against the loopback Unity fixture. */
class UnityDiscoveryTest {

  static UnityEnvironment env;
  static String ordersId;

  @BeforeAll
  static void setUp() throws Exception {
    env = new UnityEnvironment();
    IntStream.range(0, 101).forEach(i -> env.unity.addSchema("big", String.format("s%03d", i)));
    Map<String, String> columns = new LinkedHashMap<>();
    columns.put("id", "long");
    columns.put("note", "string");
    ordersId =
        env.unity.addTable(
            "main", "sales", "orders", "EXTERNAL", "DELTA", env.location("sales/orders"), columns);
    env.log.commitSchema("sales/orders", 0, columns);
    env.unity.addTable("main", "sales", "legacy_csv", "EXTERNAL", "CSV", env.location("csv"), columns);
    env.unity.addTable("main", "sales", "mv", "MATERIALIZED_VIEW", "DELTA", null, columns);
    env.unity.addView("main", "sales", "big_orders", "SELECT * FROM main.sales.orders", columns);
    IntStream.range(0, 150)
        .forEach(
            i ->
                env.unity.addTable(
                    "main", "wide", "t" + i, "MANAGED", "DELTA", env.location("wide/t" + i), columns));
  }

  @AfterAll
  static void tearDown() throws Exception {
    env.close();
  }

  @Test
  void withoutCatalogPropertyCatalogsAndSchemasKeepTwoLevels() {
    try (CatalogClient client = env.open(Map.of())) {
      client.validate();
      assertThat(client.upstreamCatalogName()).isEmpty();
      assertThat(client.listNamespaces(NamespacePath.root()))
          .containsExactly(NamespacePath.of("big"), NamespacePath.of("main"));
      assertThat(client.listNamespaces(NamespacePath.of("main")))
          .containsExactly(NamespacePath.of("main", "sales"), NamespacePath.of("main", "wide"));
      assertThat(client.listNamespaces(NamespacePath.of("main", "sales"))).isEmpty();
      assertThat(client.listObjects(NamespacePath.of("main"), Set.of(CatalogObjectKind.TABLE))).isEmpty();
    }
  }

  @Test
  void withCatalogPropertyItsSchemasAreRootNamespaces() {
    try (CatalogClient client = env.open(Map.of("catalog", "main"))) {
      // a view whose default catalog is "main" names the catalog it lives in
      assertThat(client.upstreamCatalogName()).contains("main");
      assertThat(client.listNamespaces(NamespacePath.root()))
          .containsExactly(NamespacePath.of("sales"), NamespacePath.of("wide"));
      assertThat(client.loadTable(NamespacePath.of("sales"), "orders").identity().value())
          .isEqualTo(ordersId);
      assertThatThrownBy(() -> client.listNamespaces(NamespacePath.of("nope")))
          .extracting(e -> ((CatalogAccessException) e).code())
          .isEqualTo(Code.NOT_FOUND);
    }
  }

  @Test
  void hundredAndOneSchemasSpanMoreThanOnePage() {
    try (CatalogClient client = env.open(Map.of("catalog", "big"))) {
      List<NamespacePath> schemas = client.listNamespaces(NamespacePath.root());
      assertThat(schemas).hasSize(101).doesNotHaveDuplicates();
      assertThat(schemas.get(100)).isEqualTo(NamespacePath.of("s100"));
    }
    assertThat(env.unity.requests())
        .filteredOn(r -> r.contains("catalog_name=big") && r.contains("page_token="))
        .isNotEmpty();
  }

  @Test
  void onlyDeltaTablesAndViewsAreExposed() {
    try (CatalogClient client = env.open(Map.of())) {
      NamespacePath sales = NamespacePath.of("main", "sales");
      assertThat(client.listObjects(sales, Set.of(CatalogObjectKind.TABLE, CatalogObjectKind.VIEW)))
          .containsExactly(
              new CatalogObjectRef(CatalogObjectKind.TABLE, sales, "orders"),
              new CatalogObjectRef(CatalogObjectKind.VIEW, sales, "big_orders"));
      assertThat(client.listObjects(sales, Set.of(CatalogObjectKind.VIEW)))
          .extracting(CatalogObjectRef::name)
          .containsExactly("big_orders");
      assertThatThrownBy(() -> client.loadTable(sales, "legacy_csv"))
          .extracting(e -> ((CatalogAccessException) e).code())
          .isEqualTo(Code.NOT_FOUND);
      assertThat(client.listObjects(NamespacePath.of("main", "wide"), Set.of(CatalogObjectKind.TABLE)))
          .hasSize(150);
    }
  }

  @Test
  void tableMetadataCarriesUnityIdentityLocationAndSchema() {
    try (CatalogClient client = env.open(Map.of())) {
      UpstreamTable table = client.loadTable(NamespacePath.of("main", "sales"), "orders");
      assertThat(table.identity().stable()).isTrue();
      assertThat(table.identity().value()).isEqualTo(ordersId);
      assertThat(table.storageLocation()).isEqualTo(env.location("sales/orders"));
      assertThat(table.properties())
          .containsEntry("owner.team", "fixture")
          .containsEntry(UnityClient.UNITY_TABLE_TYPE, "EXTERNAL")
          .containsEntry(UnityClient.SCHEMA_SOURCE, "delta-log");
      assertThat(table.schemaJson()).contains("\"name\":\"id\"").contains("\"type\":\"long\"");
    }
  }

  @Test
  void viewsCarrySqlAndOutputSchema() {
    try (CatalogClient client = env.open(Map.of())) {
      UpstreamView view = client.loadView(NamespacePath.of("main", "sales"), "big_orders");
      assertThat(view.representations().get(0).sql()).isEqualTo("SELECT * FROM main.sales.orders");
      assertThat(view.defaultCatalog()).isEqualTo("main");
      assertThat(view.identity().stable()).isTrue();
      assertThat(view.schemaJson()).contains("\"name\":\"note\"");
    }
  }

  @Test
  void anUnreachableCatalogIsNamedByHostAndPort() throws Exception {
    int closed;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      closed = socket.getLocalPort(); // nothing listens there once it is closed
    }
    var config = new io.icegate.access.connection.CatalogConnectionConfig(
        io.icegate.access.connection.CatalogProtocol.UNITY,
        java.net.URI.create("http://127.0.0.1:" + closed + "/api/2.1/unity-catalog"),
        env.properties(Map.of()), io.icegate.access.connection.CatalogAuthentication.none());
    try (CatalogClient client = io.icegate.access.client.CatalogClientFactory.load().open(config,
        io.icegate.access.connection.ResolvedCatalogCredentials.none(),
        io.icegate.access.network.OutboundAddressPolicy.defaults())) {
      assertThatThrownBy(client::validate)
          .isInstanceOfSatisfying(CatalogAccessException.class, e -> {
            assertThat(e.code()).isEqualTo(Code.CONNECTION_FAILED);
            assertThat(e.getMessage())
                .contains("cannot reach the Unity catalog at 127.0.0.1:" + closed
                    + " (connection refused: ConnectException)")
                // tryout: java.net.http's innermost ClosedChannelException was reported
                .doesNotContain("ClosedChannel");
          });
    }
  }

  @Test
  void propertiesAreCheckedAndClosedClientsRefuse() {
    assertThatThrownBy(() -> env.open(Map.of("catlog", "main")))
        .extracting(e -> ((CatalogAccessException) e).code())
        .isEqualTo(Code.INVALID_CONFIGURATION);
    assertThatThrownBy(() -> env.open(Map.of("http.read.ms", "soon")))
        .extracting(e -> ((CatalogAccessException) e).code())
        .isEqualTo(Code.INVALID_CONFIGURATION);
    CatalogClient client = env.open(Map.of("http.connect.ms", "500", "http.read.ms", "2000"));
    client.validate();
    client.close();
    client.close();
    assertThatThrownBy(() -> client.listNamespaces(NamespacePath.root()))
        .extracting(e -> ((CatalogAccessException) e).code())
        .isEqualTo(Code.CLOSED);
  }
}
