package io.icegate.gateway.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.gateway.testing.FederatedCatalog;
import io.icegate.gateway.testing.TestValidations;
import io.icegate.overlay.store.testing.ContributionInvariants;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 10, "Visibility", through the gateway's Iceberg REST surface after a real reconcile, which
 * captures and validates: a managed table is listed and loadable only when its current capture
 * validated clean or it has an override; otherwise it is absent from list-tables (paged listings
 * still give full pages and valid tokens) and load-table, HEAD, the credentials route and a
 * delegated load answer 403 naming the reason. A new capture with a bad file is hidden again. A
 * local table beside them is unaffected.
 *
 * <p>Upstream {@code sales} holds {@code orders} and {@code t00}..{@code t05}, and vends the
 * object store's identity as a session. {@code t01}, {@code t03} and {@code t05} each have one
 * appended data file that was never written; the upstream vends an already expired session for
 * {@code t03}. So the reconcile validates {@code orders}, {@code t00}, {@code t02}, {@code t04}
 * clean (no snapshot, nothing to check), finds one error each in {@code t01} and {@code t05} (the
 * file is missing), and leaves {@code t03} pending (its credentials expired: retryable, nothing
 * published).
 */
class ManagedTableVisibilityTest {
  private static final Namespace SALES = Namespace.of("sales");
  private static FederatedCatalog fed;
  private static RESTCatalog client;

  private static TableIdentifier t(int i) {
    return TableIdentifier.of(SALES, String.format("t%02d", i));
  }

  @BeforeAll
  static void start() throws Exception {
    fed = FederatedCatalog.start();
    try (RESTCatalog upstream = fed.upstream().newClient()) {
      for (int i = 0; i <= 5; i++) {
        upstream.createTable(t(i), IcebergRestFixture.ORDERS_SCHEMA);
      }
    }
    for (int i : new int[] {1, 3, 5}) {
      fed.appendUpstream(t(i));
    }
    fed.upstream().vending().plan(location -> location.endsWith("/t03")
        ? fed.storeSession(-60_000L)
        : fed.storeSession(3_600_000L));
    JsonNode report = fed.reconcile();
    assertThat(report.get("validated").asInt()).as(report.toString()).isEqualTo(4);
    assertThat(report.get("validationFailed").asInt()).as(report.toString()).isEqualTo(3);
    client = fed.gateway().client();
    client.createTable(TableIdentifier.of(SALES, "local_a"),
        new Schema(Types.NestedField.required(1, "note", Types.StringType.get())));
  }

  @AfterAll
  static void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    ContributionInvariants.checker(fed.gateway().gateway().store()).assertClean();
    fed.close();
  }

  private static List<String> visibleNames() {
    return List.of("local_a", "orders", "t00", "t02", "t04");
  }

  @Test
  void listingsShowOnlyVisibleTablesInFullPagesWithValidTokens() {
    assertThat(client.listTables(SALES)).extracting(TableIdentifier::name)
        .containsExactlyInAnyOrderElementsOf(visibleNames());

    String path = "/iceberg/v1/" + fed.gateway().prefix() + "/namespaces/sales/tables";
    List<String> names = new ArrayList<>();
    List<Integer> sizes = new ArrayList<>();
    String token = null;
    do {
      HttpResponse<String> page = fed.gateway().send("GET", path + "?pageSize=2"
          + (token == null ? "" : "&pageToken=" + token), null);
      JsonNode body = FederatedCatalog.json(page);
      sizes.add(body.get("identifiers").size());
      body.get("identifiers").forEach(id -> names.add(id.get("name").asText()));
      JsonNode next = body.get("next-page-token");
      token = next == null || next.isNull() ? null
          : java.net.URLEncoder.encode(next.asText(), java.nio.charset.StandardCharsets.UTF_8);
    } while (token != null);
    assertThat(names).containsExactlyElementsOf(visibleNames());
    // name order: local_a orders | t00 (t01) t02 | (t03) t04 (t05): full pages past hidden ones
    assertThat(sizes).containsExactly(2, 2, 1);
  }

  @Test
  void aHiddenTableIs403WithTheReasonOnEveryReadRoute() {
    assertThatThrownBy(() -> client.loadTable(t(3)))
        .isInstanceOf(ForbiddenException.class).hasMessageContaining("validation pending");
    assertThatThrownBy(() -> client.loadTable(t(1)))
        .isInstanceOf(ForbiddenException.class)
        .hasMessageContaining("1 validation error")
        .hasMessageContaining("/catalogs/" + fed.gateway().prefix() + "/tables/"
            + fed.tableId(t(1)) + "/validation-errors");

    String load = fed.loadPath(t(3));
    for (HttpResponse<String> r : List.of(
        fed.gateway().send("GET", load, null),
        fed.gateway().send("GET", load, null,
            "X-Iceberg-Access-Delegation", "vended-credentials"),
        fed.gateway().send("GET", load + "/credentials", null))) {
      assertThat(r.statusCode()).as(r.body()).isEqualTo(403);
      assertThat(r.body()).contains("ForbiddenException").contains("validation pending");
    }
    assertThat(fed.gateway().send("HEAD", load, null).statusCode()).isEqualTo(403);
    assertThat(fed.gateway().send("HEAD", fed.loadPath(t(0)), null).statusCode()).isEqualTo(204);
    assertThat(fed.gateway().send("HEAD", fed.loadPath(TableIdentifier.of(SALES, "local_a")),
        null).statusCode()).isEqualTo(204);
    assertThat(client.loadTable(TableIdentifier.of(SALES, "local_a")).schema().columns())
        .hasSize(1);
  }

  @Test
  void anOverrideSetOverTheAdminApiShowsAHiddenTableAndRemovingItHidesItAgain() {
    String table = fed.adminBase() + "/catalogs/" + fed.gateway().prefix() + "/tables/"
        + fed.tableId(t(5));
    String etag = fed.gateway().send("GET", table, null).headers().firstValue("ETag")
        .orElseThrow();
    HttpResponse<String> set = fed.gateway().send("PUT", table + "/visibility-override",
        "{\"note\":\"known gap\"}", "If-Match", etag);
    assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
    try {
      assertThat(client.listTables(SALES)).contains(t(5));
      assertThat(client.loadTable(t(5)).currentSnapshot().snapshotId())
          .isEqualTo(fed.upstreamMetadata(t(5)).currentSnapshot().snapshotId());
    } finally {
      assertThat(fed.gateway().send("DELETE", table + "/visibility-override", null).statusCode())
          .isEqualTo(204);
    }
    assertThat(client.listTables(SALES)).doesNotContain(t(5));
    assertThatThrownBy(() -> client.loadTable(t(5))).isInstanceOf(ForbiddenException.class)
        .hasMessageContaining("1 validation error");
  }

  @Test
  void aNewCaptureWithABadFileIsHiddenOnceTheReconcileValidatesIt() {
    assertThat(client.loadTable(t(2)).currentSnapshot()).isNull();
    fed.appendUpstream(t(2));
    JsonNode report = fed.reconcile();
    // t03 is tried again and stays pending; t02's new capture has one error
    assertThat(report.get("warnings").toString()).contains("sales.t02: 1 validation error");
    assertThatThrownBy(() -> client.loadTable(t(2)))
        .isInstanceOf(ForbiddenException.class).hasMessageContaining("1 validation error");
    assertThat(client.listTables(SALES)).doesNotContain(t(2));
    // Stands in for fixing the upstream and revalidating (writing real Parquet files is the
    // validation tests' business): a clean validation of the new capture shows its snapshot.
    TestValidations.publish(fed.gateway().gateway().store(), fed.account(), fed.tableId(t(2)),
        "sales.t02");
    assertThat(client.loadTable(t(2)).currentSnapshot().snapshotId())
        .isEqualTo(fed.upstreamMetadata(t(2)).currentSnapshot().snapshotId());
    assertThat(client.listTables(SALES)).contains(t(2));
  }
}
