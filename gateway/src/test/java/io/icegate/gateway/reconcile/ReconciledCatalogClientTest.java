package io.icegate.gateway.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.gateway.testing.GatewayFixture;
import io.icegate.overlay.store.testing.ContributionInvariants;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Objects;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.view.SQLViewRepresentation;
import org.apache.iceberg.view.View;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 8, "iceberg-core's RESTCatalog against the gateway": an Overlay of the default Catalog is
 * reconciled over the admin API from a real upstream Iceberg REST catalog on loopback; then
 * iceberg-core's own client, talking to the gateway only, lists the overlaid namespaces, loads a
 * managed table's schema, loads the view with both dialects, and is refused (403 naming the
 * Overlay) when it writes the managed table, while a local table beside it stays writable.
 */
class ReconciledCatalogClientTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static ObjectStoreFixture objects;
  private static IcebergRestFixture upstream;
  private static GatewayFixture gw;
  private static RESTCatalog client;
  private static String overlay;

  @BeforeAll
  static void reconcile() throws Exception {
    objects = ObjectStoreFixture.startS3Proxy();
    upstream = IcebergRestFixture.start(objects).seed();
    gw = GatewayFixture.start();
    String account = null;
    for (JsonNode a : json(gw.send("GET", "/admin/v1/accounts", null)).get("items")) {
      if (a.get("name").asText().equals("default")) {
        account = a.get("id").asText();
      }
    }
    String base = "/admin/v1/accounts/" + Objects.requireNonNull(account);
    String integration = json(gw.send("POST", base + "/integrations", "{\"displayName\":\"up\","
        + "\"type\":\"ICEBERG_REST\",\"uri\":\"" + upstream.uri() + "\","
        + "\"authentication\":{\"type\":\"bearer\",\"token\":\"tok\"}}")).get("id").asText();
    overlay = json(gw.send("POST", base + "/overlays", "{\"displayName\":\"sales\","
        + "\"integrationId\":\"" + integration + "\",\"catalogId\":\"" + gw.prefix()
        + "\",\"includeNamespaces\":[[\"sales\"]],\"excludeNamespaces\":[[\"sales\",\"emea\"]]}"))
        .get("id").asText();
    HttpResponse<String> report = gw.send("POST", base + "/overlays/" + overlay + "/reconcile",
        null);
    assertThat(report.statusCode()).as(report.body()).isEqualTo(200);
    JsonNode done = json(report);
    assertThat(done.get("created").asInt()).isEqualTo(2); // sales.orders + the view
    // Visible to clients because the reconcile validated its capture (issue 10): no snapshot yet,
    // so no file to check.
    assertThat(done.get("validated").asInt()).as(done.toString()).isEqualTo(1);
    client = gw.client();
  }

  @AfterAll
  static void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    ContributionInvariants.checker(gw.gateway().store()).assertClean();
    gw.close();
    upstream.close();
    objects.close();
  }

  @Test
  void listsTheOverlaidNamespacesOnly() {
    assertThat(client.listNamespaces()).contains(Namespace.of("sales"))
        .doesNotContain(Namespace.of("Marketing"));
    assertThat(client.listNamespaces(Namespace.of("sales"))).isEmpty(); // emea is excluded
    assertThat(client.listTables(Namespace.of("sales")))
        .containsExactly(TableIdentifier.of("sales", "orders"));
    assertThat(client.listViews(Namespace.of("sales")))
        .containsExactly(TableIdentifier.of("sales", "order_summary"));
  }

  @Test
  void loadsTheManagedTableWithTheUpstreamSchema() {
    Table table = client.loadTable(TableIdentifier.of("sales", "orders"));
    assertThat(table.schema().sameSchema(IcebergRestFixture.ORDERS_SCHEMA)).isTrue();
    assertThat(table.uuid().toString()).isEqualTo(upstream.backingCatalog()
        .loadTable(TableIdentifier.of("sales", "orders")).uuid().toString());
    assertThat(table.currentSnapshot()).isNull(); // captured: the upstream has no snapshot yet
  }

  @Test
  void loadsTheViewWithBothDialects() {
    View view = client.loadView(TableIdentifier.of("sales", "order_summary"));
    List<String> dialects = view.currentVersion().representations().stream()
        .map(r -> ((SQLViewRepresentation) r).dialect()).toList();
    assertThat(dialects).containsExactly("spark", "trino");
    assertThat(view.schema().sameSchema(IcebergRestFixture.SUMMARY_SCHEMA)).isTrue();
    assertThat(view.properties()).containsEntry("comment", "revenue per customer");
  }

  @Test
  void writingTheManagedTableIsForbiddenNamingTheOverlayButALocalTableWorks() {
    Table managed = client.loadTable(TableIdentifier.of("sales", "orders"));
    assertThatThrownBy(() -> managed.updateProperties().set("k", "v").commit())
        .isInstanceOf(ForbiddenException.class).hasMessageContaining(overlay);
    assertThatThrownBy(() -> client.dropTable(TableIdentifier.of("sales", "orders")))
        .isInstanceOf(ForbiddenException.class).hasMessageContaining(overlay);

    TableIdentifier local = TableIdentifier.of("sales", "local_notes");
    Table created = client.createTable(local,
        new Schema(Types.NestedField.required(1, "note", Types.StringType.get())));
    created.updateProperties().set("owner", "me").commit();
    assertThat(client.loadTable(local).properties()).containsEntry("owner", "me");
    assertThat(client.dropTable(local)).isTrue();
  }

  private static JsonNode json(HttpResponse<String> response) {
    assertThat(response.statusCode()).as(response.body()).isBetween(200, 299);
    try {
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
