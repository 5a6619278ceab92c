package io.icegate.admin;

import static io.icegate.admin.AdminHttpMappingTest.assertProblem;
import static io.icegate.admin.testing.AdminServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.admin.testing.AdminServer;
import io.icegate.core.auth.TokenRole;
import io.icegate.core.model.Resource;
import io.icegate.core.model.Table;
import io.icegate.overlay.store.validation.ManagedTableSetup;
import java.net.http.HttpResponse;
import java.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The HTTP mapping of a Catalog's Tables ({@link TableRoutes}) over real HTTP on loopback: finding
 * a table by path, its view with ETag, the visibility override under If-Match, validation errors
 * paged, and 404 for a table outside the Catalog. Managed tables are stored as reconciliation
 * stores them ({@link ManagedTableSetup}); their validation is still pending, so they are hidden
 * until overridden.
 */
class TableRoutesTest {
  private AdminServer server;
  private ManagedTableSetup setup;
  private String catalog;
  private Resource<Table> managed;

  @BeforeEach
  void start() {
    server = AdminServer.start();
    setup = new ManagedTableSetup(server.services.repositories(), Clock.systemUTC());
    server.grant(AdminServer.ADMIN, setup.account, TokenRole.ADMIN, true);
    catalog = "/admin/v1/accounts/" + setup.account + "/catalogs/" + setup.catalogId;
    managed = setup.managedTable("orders");
    setup.localTable("notes");
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  @Test
  void findsTablesByPathAndPagesThem() {
    JsonNode byName = json(server.send("GET", catalog + "/tables?namespace=sales&name=orders",
        null));
    assertThat(byName.get("items")).hasSize(1);
    assertThat(byName.get("items").get(0).get("id").asText()).isEqualTo(managed.id());
    assertThat(byName.get("nextPageToken").isNull()).isTrue();
    assertThat(json(server.send("GET", catalog + "/tables?namespace=sales&name=none", null))
        .get("items")).isEmpty();
    // an empty name (a shell's `name=$T` with T unset) is no listing whose first item looks found
    JsonNode empty = assertProblem(server.send("GET", catalog + "/tables?namespace=sales&name=",
        null), 400, "INVALID_ARGUMENT");
    assertThat(empty.get("detail").asText()).contains("name must not be empty");

    JsonNode first = json(server.send("GET", catalog + "/tables?namespace=sales&pageSize=1",
        null));
    assertThat(first.get("items")).hasSize(1);
    String token = first.get("nextPageToken").asText();
    JsonNode second = json(server.send("GET", catalog + "/tables?namespace=sales&pageSize=1"
        + "&pageToken=" + token, null));
    assertThat(second.get("items")).hasSize(1);
    assertThat(second.get("items").get(0).get("name").asText())
        .isNotEqualTo(first.get("items").get(0).get("name").asText());

    JsonNode missing = assertProblem(server.send("GET", catalog + "/tables", null), 400,
        "INVALID_ARGUMENT");
    assertThat(missing.get("detail").asText()).contains("namespace");
    assertProblem(server.send("GET", "/admin/v1/accounts/" + setup.account
        + "/catalogs/no-such-catalog/tables?namespace=sales", null), 404, "NOT_FOUND");
  }

  @Test
  void aTablesViewCarriesItsStateAndETag() {
    HttpResponse<String> read = server.send("GET", catalog + "/tables/" + managed.id(), null);
    assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
    assertThat(read.headers().firstValue("ETag")).contains(managed.etag());
    JsonNode view = json(read);
    assertThat(view.get("validation").get("state").asText()).isEqualTo("PENDING");
    assertThat(view.get("capture").isNull()).isTrue();
    assertThat(view.get("visibilityOverride").isNull()).isTrue();
    assertThat(view.get("visible").asBoolean()).isFalse();
    assertThat(view.get("visibilityReason").asText()).isNotBlank();

    JsonNode errors = json(server.send("GET", catalog + "/tables/" + managed.id()
        + "/validation-errors?pageSize=10", null));
    assertThat(errors.get("items")).isEmpty();
    assertThat(errors.get("nextPageToken").isNull()).isTrue();
    assertProblem(server.send("GET", catalog + "/tables/no-such-table", null), 404, "NOT_FOUND");
  }

  @Test
  void theOverrideNeedsIfMatchAndMovesTheETag() {
    String path = catalog + "/tables/" + managed.id() + "/visibility-override";
    String note = "{\"note\":\"checked by hand\"}";
    assertProblem(server.send("PUT", path, note), 428, "PRECONDITION_REQUIRED");
    assertProblem(server.send("PUT", path, note, "If-Match", "\"" + managed.id() + "/99\""),
        412, "PRECONDITION_FAILED");

    HttpResponse<String> set = server.send("PUT", path, note, "If-Match", managed.etag());
    assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
    JsonNode view = json(set);
    assertThat(view.get("visibilityOverride").get("note").asText()).isEqualTo("checked by hand");
    assertThat(view.get("visible").asBoolean()).isTrue();
    String etag = set.headers().firstValue("ETag").orElseThrow();
    assertThat(etag).isNotEqualTo(managed.etag());

    assertProblem(server.send("DELETE", path, null, "If-Match", managed.etag()), 412,
        "PRECONDITION_FAILED");
    assertThat(server.send("DELETE", path, null, "If-Match", etag).statusCode()).isEqualTo(204);
    JsonNode after = json(server.send("GET", catalog + "/tables/" + managed.id(), null));
    assertThat(after.get("visibilityOverride").isNull()).isTrue();
    assertThat(after.get("visible").asBoolean()).isFalse();
  }

  @Test
  void aTableOfAnotherCatalogIsNotFound() {
    String other = json(server.send("POST", "/admin/v1/accounts/" + setup.account + "/catalogs",
        "{\"name\":\"other\",\"warehouse\":\"file:/tmp/other\"}")).get("id").asText();
    String elsewhere = "/admin/v1/accounts/" + setup.account + "/catalogs/" + other + "/tables/"
        + managed.id();
    assertProblem(server.send("GET", elsewhere, null), 404, "NOT_FOUND");
    assertProblem(server.send("PUT", elsewhere + "/visibility-override", "{}", "If-Match",
        managed.etag()), 404, "NOT_FOUND");
    assertProblem(server.send("POST", elsewhere + "/revalidate", null), 404, "NOT_FOUND");
  }
}
