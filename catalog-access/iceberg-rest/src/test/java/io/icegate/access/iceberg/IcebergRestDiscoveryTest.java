package io.icegate.access.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.connection.CatalogAuthentication;
import io.icegate.access.connection.CatalogConnectionConfig;
import io.icegate.access.connection.CatalogProtocol;
import io.icegate.access.connection.ResolvedCatalogCredentials;
import io.icegate.access.iceberg.fixture.PaginationFaultFilter;
import io.icegate.access.model.CatalogObjectKind;
import io.icegate.access.model.CatalogObjectRef;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.model.TableFormat;
import io.icegate.access.model.UpstreamTable;
import io.icegate.access.model.UpstreamView;
import io.icegate.access.model.ViewRepresentation;
import io.icegate.access.network.OutboundAddressPolicy;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class IcebergRestDiscoveryTest {

  private static UpstreamCatalog upstream;

  @BeforeAll
  static void start() throws Exception {
    upstream = new UpstreamCatalog();
  }

  @AfterAll
  static void stop() throws Exception {
    upstream.close();
  }

  @AfterEach
  void reset() {
    upstream.fixture.pagination().mode(PaginationFaultFilter.Mode.OFF);
  }

  @Test
  void providerIsFoundThroughServiceLoaderAndValidatesWithANamespaceListing() {
    upstream.fixture.requests().clear();
    try (CatalogClient client = upstream.anonymous()) {
      assertThat(client.capabilities().supportsViews()).isTrue();
      assertThat(upstream.fixture.requests().requests()).isEmpty(); // opening is not a call
      client.validate();
    }
    assertThat(upstream.fixture.requests().count("GET /v1/namespaces")).isGreaterThanOrEqualTo(1);
  }

  @Test
  void anUnreachableCatalogIsNamedByHostAndPortWithoutItsPathOrQuery() throws Exception {
    int closed;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      closed = socket.getLocalPort(); // nothing listens there once it is closed
    }
    CatalogConnectionConfig config = new CatalogConnectionConfig(CatalogProtocol.ICEBERG_REST,
        java.net.URI.create("http://127.0.0.1:" + closed + "/v1?tenant=t1"), Map.of(),
        CatalogAuthentication.none());
    try (CatalogClient client = upstream.open(config, ResolvedCatalogCredentials.none())) {
      assertThatThrownBy(() -> client.listNamespaces(NamespacePath.root()))
          .isInstanceOfSatisfying(CatalogAccessException.class, e -> {
            assertThat(e.code()).isEqualTo(Code.CONNECTION_FAILED);
            assertThat(e.getMessage())
                .contains("cannot reach the catalog at 127.0.0.1:" + closed + " (")
                .doesNotContain("tenant").doesNotContain("/v1");
          });
    }
  }

  @Test
  void aPeerThatAcceptsAndClosesIsNamedByHostAndPort() throws Exception {
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 50,
        java.net.InetAddress.getLoopbackAddress())) {
      Thread closer = new Thread(() -> {
        while (!socket.isClosed()) {
          try {
            socket.accept().close(); // accepts, reads nothing, answers nothing
          } catch (java.io.IOException e) {
            return;
          }
        }
      });
      closer.setDaemon(true);
      closer.start();
      int port = socket.getLocalPort();
      CatalogConnectionConfig config = new CatalogConnectionConfig(CatalogProtocol.ICEBERG_REST,
          java.net.URI.create("http://127.0.0.1:" + port + "/v1"), Map.of(),
          CatalogAuthentication.none());
      assertThatThrownBy(() -> {
        try (CatalogClient client = upstream.open(config, ResolvedCatalogCredentials.none())) {
          client.listNamespaces(NamespacePath.root());
        }
      }).isInstanceOfSatisfying(CatalogAccessException.class, e -> {
        assertThat(e.code()).isEqualTo(Code.CONNECTION_FAILED);
        assertThat(e.getMessage()).contains("cannot reach the catalog at 127.0.0.1:" + port);
      });
    }
  }

  @Test
  void namespacesAreStructuredHierarchicalAndCasePreserving() {
    try (CatalogClient client = upstream.anonymous()) {
      assertThat(client.listNamespaces(NamespacePath.root()))
          .contains(NamespacePath.of("sales"), NamespacePath.of("Marketing"));
      assertThat(client.listNamespaces(NamespacePath.of("sales")))
          .containsExactly(NamespacePath.of("sales", "emea"));
      assertThat(client.listNamespaces(NamespacePath.of("Marketing")))
          .containsExactly(NamespacePath.of("Marketing", "BrandQ1"));
      assertThatThrownBy(() -> client.listNamespaces(NamespacePath.of("nope")))
          .isInstanceOfSatisfying(
              CatalogAccessException.class, e -> assertThat(e.code()).isEqualTo(Code.NOT_FOUND));
    }
  }

  @Test
  void objectListingIsLightweight() {
    try (CatalogClient client = upstream.anonymous()) {
      upstream.fixture.requests().clear();
      List<CatalogObjectRef> objects =
          client.listObjects(NamespacePath.of("sales"), EnumSet.allOf(CatalogObjectKind.class));
      assertThat(objects)
          .containsExactly(
              new CatalogObjectRef(CatalogObjectKind.TABLE, NamespacePath.of("sales"), "orders"),
              new CatalogObjectRef(
                  CatalogObjectKind.VIEW, NamespacePath.of("sales"), "order_summary"));
      assertThat(client.listObjects(NamespacePath.of("sales"), EnumSet.of(CatalogObjectKind.VIEW)))
          .extracting(CatalogObjectRef::kind)
          .containsOnly(CatalogObjectKind.VIEW);
      assertThat(upstream.fixture.requests().requests())
          .noneMatch(
              line -> line.matches("GET .*/tables/[^?]+") || line.matches("GET .*/views/[^?]+"));
    }
  }

  @Test
  void tableMetadataCarriesFormatLocationsAndTheUuidAsStableIdentity() {
    try (CatalogClient client = upstream.anonymous()) {
      UpstreamTable table = client.loadTable(NamespacePath.of("sales", "emea"), "customers");
      var backing =
          upstream
              .fixture
              .backingCatalog()
              .loadTable(TableIdentifier.of("sales", "emea", "customers"));
      assertThat(table.format()).isEqualTo(TableFormat.ICEBERG);
      assertThat(table.identity().stable()).isTrue();
      assertThat(table.identity().value()).isEqualTo(backing.uuid().toString());
      assertThat(table.storageLocation()).isEqualTo(backing.location());
      assertThat(table.metadataLocation())
          .startsWith(backing.location())
          .endsWith(".metadata.json");
      assertThat(table.schemaJson()).contains("order_id").contains("decimal(12, 2)");
    }
  }

  @Test
  void theWarehousePropertyNamesTheUpstreamCatalog() {
    try (CatalogClient client = upstream.anonymous()) {
      assertThat(client.upstreamCatalogName()).isEmpty();
    }
    Map<String, String> properties = new HashMap<>(upstream.properties());
    properties.put("warehouse", "sales_wh");
    try (CatalogClient client =
        upstream.open(
            upstream.config(CatalogAuthentication.none(), properties),
            ResolvedCatalogCredentials.none())) {
      assertThat(client.upstreamCatalogName()).contains("sales_wh");
    }
  }

  @Test
  void viewMetadataCarriesSchemaEveryDialectDefaultNamespaceAndProperties() {
    try (CatalogClient client = upstream.anonymous()) {
      UpstreamView view = client.loadView(NamespacePath.of("sales"), "order_summary");
      assertThat(view.representations())
          .extracting(ViewRepresentation::dialect)
          .containsExactlyInAnyOrder("spark", "trino");
      assertThat(view.representations())
          .anyMatch(r -> r.dialect().equals("trino") && r.sql().contains("sales.orders"));
      assertThat(view.defaultNamespace()).isEqualTo(NamespacePath.of("sales"));
      assertThat(view.properties()).containsEntry("comment", "revenue per customer");
      assertThat(view.schemaJson()).contains("total");
      assertThat(view.identity().stable()).isTrue();
      assertThat(view.metadataLocation()).endsWith(".metadata.json");
    }
  }

  @Test
  void aStuckNextPageTokenFailsWithinABoundedNumberOfRequests() {
    upstream.fixture.pagination().mode(PaginationFaultFilter.Mode.STUCK);
    try (CatalogClient client = upstream.anonymous()) {
      assertThatThrownBy(() -> client.listNamespaces(NamespacePath.root()))
          .isInstanceOfSatisfying(
              CatalogAccessException.class,
              e -> assertThat(e.code()).isEqualTo(Code.UPSTREAM_PROTOCOL_ERROR))
          .hasMessageContaining("incomplete");
    }
    assertThat(upstream.fixture.pagination().pagesServed()).isLessThanOrEqualTo(2);
  }

  @Test
  void aCyclingPageTokenFailsWithinABoundedNumberOfRequests() {
    upstream.fixture.pagination().mode(PaginationFaultFilter.Mode.CYCLE);
    try (CatalogClient client = upstream.anonymous()) {
      assertThatThrownBy(() -> client.validate())
          .isInstanceOfSatisfying(
              CatalogAccessException.class,
              e -> assertThat(e.code()).isEqualTo(Code.UPSTREAM_PROTOCOL_ERROR));
    }
    assertThat(upstream.fixture.pagination().pagesServed()).isLessThanOrEqualTo(3);
  }

  @Test
  void theOutboundPolicyIsAppliedBeforeConnecting() {
    upstream.fixture.requests().clear();
    assertThatThrownBy(
            () ->
                upstream.factory.open(
                    upstream.config(CatalogAuthentication.none()),
                    ResolvedCatalogCredentials.none(),
                    OutboundAddressPolicy.defaults().denyLoopback()))
        .isInstanceOfSatisfying(
            CatalogAccessException.class, e -> assertThat(e.code()).isEqualTo(Code.ADDRESS_DENIED));
    assertThat(upstream.fixture.requests().requests()).isEmpty();
  }

  @Test
  void closingTwiceIsHarmlessAndLaterCallsFail() {
    CatalogClient client = upstream.anonymous();
    client.validate();
    client.close();
    client.close();
    assertThatThrownBy(client::validate)
        .isInstanceOfSatisfying(
            CatalogAccessException.class, e -> assertThat(e.code()).isEqualTo(Code.CLOSED));
  }

  @Test
  void unknownPropertiesAndCredentialsAreRefused() {
    var properties = upstream.properties();
    properties.put("io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
    assertThatThrownBy(
            () -> upstream.open(upstream.config(CatalogAuthentication.none(), properties), null))
        .isInstanceOfSatisfying(
            CatalogAccessException.class,
            e -> assertThat(e.code()).isEqualTo(Code.INVALID_CONFIGURATION));
    assertThatThrownBy(
            () ->
                upstream.open(
                    upstream.config(CatalogAuthentication.none()),
                    new ResolvedCatalogCredentials(java.util.Map.of("token", "x"), null, null)))
        .isInstanceOfSatisfying(
            CatalogAccessException.class,
            e -> assertThat(e.code()).isEqualTo(Code.INVALID_CONFIGURATION));
  }
}
