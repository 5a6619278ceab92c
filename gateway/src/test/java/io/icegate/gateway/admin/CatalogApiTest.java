package io.icegate.gateway.admin;

import static io.icegate.gateway.testing.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * Catalogs through the admin API: ETags and If-Match, warehouses, pages of a listing, and
 * deletion (refused while namespaces remain; at once gone from the Iceberg routes).
 */
class CatalogApiTest extends AdminOverHttp {

  @Test
  void createGetAndListCatalogsWithEtags() {
    HttpResponse<String> created = gw.send("POST", base() + "/catalogs",
        "{\"name\":\"sales\",\"warehouse\":\"s3://bucket/sales\",\"storage\":{\"s3\":"
            + "{\"region\":\"us-east-1\",\"accessKeyId\":\"AK\",\"secretAccessKey\":\"" + SECRET
            + "\"}}}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    assertThat(created.headers().firstValue("ETag")).isPresent();
    assertThat(created.body()).doesNotContain(SECRET);
    JsonNode body = json(created);
    assertThat(body.at("/storage/s3/credentialsConfigured").asBoolean()).isTrue();
    String id = body.get("id").asText();
    HttpResponse<String> got = gw.send("GET", base() + "/catalogs/" + id, null);
    assertThat(got.statusCode()).isEqualTo(200);
    assertThat(got.headers().firstValue("ETag")).isEqualTo(created.headers().firstValue("ETag"));
    HttpResponse<String> page = gw.send("GET", base() + "/catalogs?pageSize=1", null);
    assertThat(json(page).get("items")).hasSize(1);
  }

  @Test
  void patchNeedsIfMatchAndRefusesAStaleOne() {
    String id = json(gw.send("POST", base() + "/catalogs",
        "{\"name\":\"patchme\",\"warehouse\":\"file:/tmp/x\"}")).get("id").asText();
    assertProblem(gw.send("PATCH", base() + "/catalogs/" + id, "{\"name\":\"p2\"}"), 428,
        "PRECONDITION_REQUIRED");
    String etag = gw.send("GET", base() + "/catalogs/" + id, null).headers()
        .firstValue("ETag").orElseThrow();
    HttpResponse<String> ok = gw.send("PATCH", base() + "/catalogs/" + id, "{\"name\":\"p2\"}",
        "If-Match", etag);
    assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
    assertProblem(gw.send("PATCH", base() + "/catalogs/" + id, "{\"name\":\"p3\"}",
        "If-Match", etag), 412, "GENERATION_MISMATCH");
  }

  @Test
  void listsPageWithPageTokens() {
    for (int i = 0; i < 3; i++) {
      gw.send("POST", base() + "/catalogs", "{\"name\":\"page-" + i
          + "\",\"warehouse\":\"file:/tmp/p\"}");
    }
    java.util.List<String> names = new java.util.ArrayList<>();
    String token = null;
    do {
      JsonNode page = json(gw.send("GET", base() + "/catalogs?pageSize=2"
          + (token == null ? "" : "&pageToken=" + token), null));
      assertThat(page.get("items").size()).isLessThanOrEqualTo(2);
      page.get("items").forEach(item -> names.add(item.get("name").asText()));
      token = page.get("nextPageToken").isNull() ? null : page.get("nextPageToken").asText();
    } while (token != null);
    assertThat(names).contains("page-0", "page-1", "page-2").doesNotHaveDuplicates();
    assertProblem(gw.send("GET", base() + "/catalogs?pageToken=forged", null), 400,
        "INVALID_PAGE_TOKEN");
    assertProblem(gw.send("GET", base() + "/catalogs?pageSize=0", null), 400,
        "INVALID_ARGUMENT");
  }

  @Test
  void aRelativeFileWarehouseIsRefused() {
    for (String warehouse : new String[] {"file:relative/wh", "file:./wh", "file:wh", "file:"}) {
      assertProblem(gw.send("POST", base() + "/catalogs",
          "{\"name\":\"relative\",\"warehouse\":\"" + warehouse + "\"}"), 400,
          "INVALID_ARGUMENT");
    }
    assertThat(gw.send("POST", base() + "/catalogs",
        "{\"name\":\"absolute\",\"warehouse\":\"file:///tmp/abs\"}").statusCode())
        .isEqualTo(201);
  }

  @Test
  void catalogDeleteRefusedWhileItHoldsNamespaces() {
    String id = json(gw.send("POST", base() + "/catalogs",
        "{\"name\":\"full\",\"warehouse\":\"file:/tmp/full\"}")).get("id").asText();
    // A namespace through the Iceberg surface with a writer token of the account.
    String token = json(gw.send("POST", base() + "/tokens",
        "{\"name\":\"w\",\"role\":\"writer\"}")).get("token").asText();
    HttpResponse<String> ns = gw.send("POST", "/iceberg/v1/" + id + "/namespaces",
        "{\"namespace\":[\"n\"]}", "Authorization", "Bearer " + token);
    assertThat(ns.statusCode()).as(ns.body()).isEqualTo(200);
    HttpResponse<String> refused = gw.send("DELETE", base() + "/catalogs/" + id, null);
    assertProblem(refused, 409, "DEPENDENCY_EXISTS");
    // the detail names what holds the catalog, so the operator knows what to drop first
    assertThat(json(refused).get("detail").asText())
        .startsWith("catalog 'full' holds 1 namespace(s), among them 'n'; ");
    gw.send("DELETE", "/iceberg/v1/" + id + "/namespaces/n", null, "Authorization",
        "Bearer " + token);
    assertThat(gw.send("DELETE", base() + "/catalogs/" + id, null).statusCode()).isEqualTo(204);
    assertProblem(gw.send("GET", base() + "/catalogs/" + id, null), 404, "NOT_FOUND");
  }

  @Test
  void aDeletedCatalogIsGoneFromTheIcebergRoutesAtOnce() {
    String reader = "Bearer " + json(gw.send("POST", base() + "/tokens",
        "{\"name\":\"gone-reader\",\"role\":\"reader\"}")).get("token").asText();
    io.icegate.core.repo.Repositories repositories =
        io.icegate.overlay.store.OverlayStore.repositories(gw.gateway().store(),
            java.time.Clock.systemUTC());
    for (String how : new String[] {"admin API", "another process"}) {
      String id = json(gw.send("POST", base() + "/catalogs", "{\"name\":\"gone-"
          + how.replace(' ', '-') + "\",\"warehouse\":\"file:/tmp/gone\"}")).get("id").asText();
      String namespaces = "/iceberg/v1/" + id + "/namespaces";
      assertThat(gw.send("GET", namespaces, null, "Authorization", reader).statusCode())
          .as(how).isEqualTo(200);
      if (how.equals("admin API")) {
        assertThat(gw.send("DELETE", base() + "/catalogs/" + id, null).statusCode())
            .isEqualTo(204);
      } else {
        // Another gateway process on the same store deletes it: this process's caches never hear.
        repositories.catalogs(account).delete(id, io.icegate.core.repo.ExpectedGeneration.any());
      }
      HttpResponse<String> after = gw.send("GET", namespaces, null, "Authorization", reader);
      assertThat(after.statusCode()).as(how + ": " + after.body()).isEqualTo(404);
      assertThat(gw.send("POST", namespaces, "{\"namespace\":[\"n\"]}", "Authorization",
          reader).statusCode()).as(how).isIn(403, 404);
    }
  }

  @Test
  void aDeletedCatalogIsFencedForClientsHoldingItsPrefix() {
    String id = json(gw.send("POST", base() + "/catalogs",
        "{\"name\":\"fenced\",\"warehouse\":\"file:/tmp/fenced\"}")).get("id").asText();
    assertThat(gw.send("DELETE", base() + "/catalogs/" + id, null).statusCode()).isEqualTo(204);
    String token = json(gw.send("POST", base() + "/tokens",
        "{\"name\":\"f\",\"role\":\"writer\"}")).get("token").asText();
    HttpResponse<String> ns = gw.send("POST", "/iceberg/v1/" + id + "/namespaces",
        "{\"namespace\":[\"n\"]}", "Authorization", "Bearer " + token);
    assertThat(ns.statusCode()).as(ns.body()).isIn(404, 409);
  }
}
