package io.icegate.gateway.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.gateway.testing.GatewayFixture;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The gateway through iceberg-core's own REST client, as Spark and Trino use it. */
class RestCatalogClientTest {
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "data", Types.StringType.get()));

  private static GatewayFixture gateway;
  private static RESTCatalog catalog;

  @BeforeAll
  static void start() {
    gateway = GatewayFixture.start();
    catalog = gateway.client();
  }

  @AfterAll
  static void stop() throws Exception {
    catalog.close();
    gateway.close();
  }

  @Test
  void configAnswersTheCatalogIdAsPrefixAndTheEndpoints() {
    HttpResponse<String> response =
        gateway.send("GET", "/iceberg/v1/config?warehouse=default", null);
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).contains("\"prefix\"", "\"endpoints\"",
        "POST /v1/{prefix}/transactions/commit", "\"idempotency-key-lifetime\":\"PT24H\"");
    assertThat(gateway.prefix()).isNotBlank();
  }

  @Test
  void unknownWarehouseIsNotFound() {
    HttpResponse<String> response =
        gateway.send("GET", "/iceberg/v1/config?warehouse=nope", null);
    assertThat(response.statusCode()).isEqualTo(404);
    assertThat(response.body()).contains("\"error\"", "\"code\":404");
  }

  @Test
  void namespacesAndTablesRoundTripThroughTheRestClient() {
    Namespace ns = Namespace.of("client_ns");
    catalog.createNamespace(ns, new HashMap<>(Map.of("owner", "alice")));
    assertThat(catalog.listNamespaces()).contains(ns);
    assertThat(catalog.loadNamespaceMetadata(ns)).containsEntry("owner", "alice");

    TableIdentifier id = TableIdentifier.of(ns, "events");
    Table table = catalog.createTable(id, SCHEMA, PartitionSpec.unpartitioned());
    assertThat(catalog.listTables(ns)).containsExactly(id);

    DataFile file = DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(table.location() + "/data/f1.parquet")
        .withFileSizeInBytes(100)
        .withRecordCount(3)
        .build();
    table.newFastAppend().appendFile(file).commit();

    Table loaded = catalog.loadTable(id);
    assertThat(loaded.currentSnapshot()).isNotNull();
    assertThat(loaded.currentSnapshot().summary()).containsEntry("added-records", "3");

    assertThat(catalog.dropTable(id)).isTrue();
    assertThatThrownBy(() -> catalog.loadTable(id)).isInstanceOf(NoSuchTableException.class);
    assertThat(catalog.dropNamespace(ns)).isTrue();
  }

  @Test
  void requestsWithoutAValidTokenAre401() {
    HttpResponse<String> response = gateway.send("GET", "/iceberg/v1/config", null,
        "Authorization", "Bearer wrong");
    assertThat(response.statusCode()).isEqualTo(401);
    Map<String, String> props = new HashMap<>();
    props.put("uri", gateway.icebergUri());
    props.put("token", "wrong");
    try (RESTCatalog bad = new RESTCatalog()) {
      assertThatThrownBy(() -> bad.initialize("bad", props))
          .isInstanceOf(NotAuthorizedException.class);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void clientCredentialsExchangeTheTokenAsSecret() throws Exception {
    Map<String, String> props = new HashMap<>();
    props.put("uri", gateway.icebergUri());
    props.put("warehouse", "default");
    props.put("credential", "spark:" + GatewayFixture.TOKEN);
    try (RESTCatalog viaCredential = new RESTCatalog()) {
      viaCredential.initialize("cred", props);
      assertThat(viaCredential.listNamespaces()).isNotNull();
    }
  }

  @Test
  void healthReadinessAndMetricsAreServed() {
    assertThat(gateway.send("GET", "/healthz", null).statusCode()).isEqualTo(200);
    assertThat(gateway.send("GET", "/readyz", null).body()).isEqualTo("ok\n");
    gateway.send("GET", "/iceberg/v1/config", null);
    String metrics = gateway.send("GET", "/metrics", null).body();
    assertThat(metrics).contains(
        "icegate_http_requests_total{route=\"GET /v1/config\",status=\"200\"}",
        "icegate_http_request_duration_seconds_bucket{route=\"GET /v1/config\",le=\"+Inf\"}",
        "icegate_store_committed_writes_total");
  }
}
