package io.icegate.gateway.admin;

import static io.icegate.gateway.testing.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * Accounts and their tokens through the admin API: one account sees nothing of another, token
 * roles, and a deleted or fenced account whose tokens stop authenticating and whose resources and
 * credentials go with it.
 */
class AccountApiTest extends AdminOverHttp {

  @Test
  void secondAccountSeesNothingOfTheFirst() {
    String other = json(gw.send("POST", "/admin/v1/accounts", "{\"name\":\"other\"}"))
        .get("id").asText();
    String token = json(gw.send("POST", "/admin/v1/accounts/" + other + "/tokens",
        "{\"name\":\"t\",\"role\":\"admin\"}")).get("token").asText();
    String catalog = json(gw.send("POST", base() + "/catalogs",
        "{\"name\":\"iso\",\"warehouse\":\"file:/tmp/iso\"}")).get("id").asText();
    String integ = json(gw.send("POST", base() + "/integrations", integration("iso")))
        .get("id").asText();
    String auth = "Bearer " + token;
    String[][] calls = {
      {"GET", base()}, {"GET", base() + "/catalogs"}, {"POST", base() + "/catalogs"},
      {"GET", base() + "/catalogs/" + catalog}, {"PATCH", base() + "/catalogs/" + catalog},
      {"DELETE", base() + "/catalogs/" + catalog}, {"GET", base() + "/integrations"},
      {"POST", base() + "/integrations"}, {"GET", base() + "/integrations/" + integ},
      {"PATCH", base() + "/integrations/" + integ},
      {"DELETE", base() + "/integrations/" + integ},
      {"PUT", base() + "/integrations/" + integ + "/authentication"},
      {"POST", base() + "/tokens"},
    };
    for (String[] call : calls) {
      HttpResponse<String> r = gw.send(call[0], call[1], "{}", "Authorization", auth,
          "If-Match", "\"x/1\"");
      assertProblem(r, 404, "NOT_FOUND");
    }
    assertThat(gw.send("GET", base() + "/catalogs/" + catalog, null).statusCode()).isEqualTo(200);
  }

  @Test
  void readersCannotWrite() {
    String token = json(gw.send("POST", base() + "/tokens",
        "{\"name\":\"r\",\"role\":\"reader\"}")).get("token").asText();
    assertThat(gw.send("GET", base() + "/catalogs", null, "Authorization", "Bearer " + token)
        .statusCode()).isEqualTo(200);
    assertProblem(gw.send("POST", base() + "/catalogs",
        "{\"name\":\"r\",\"warehouse\":\"file:/tmp/r\"}", "Authorization", "Bearer " + token),
        403, "PERMISSION_DENIED");
    assertProblem(gw.send("GET", base(), null, "Authorization", "Bearer nope"), 401,
        "UNAUTHENTICATED");
  }

  @Test
  void tokenRolesAreAClosedSetAndTheSecretIsShownOnce() {
    assertProblem(gw.send("POST", base() + "/tokens", "{\"name\":\"t\",\"role\":\"root\"}"),
        400, "MALFORMED_REQUEST");
    HttpResponse<String> issued = gw.send("POST", base() + "/tokens",
        "{\"name\":\"t\",\"role\":\"writer\"}");
    assertThat(issued.statusCode()).isEqualTo(201);
    String token = json(issued).get("token").asText();
    assertThat(gw.send("GET", base(), null, "Authorization", "Bearer " + token).statusCode())
        .isEqualTo(200);
    // writers act on /iceberg but not on the admin surface's mutations
    assertProblem(gw.send("POST", base() + "/integrations", integration("w"), "Authorization",
        "Bearer " + token), 403, "PERMISSION_DENIED");
  }

  @Test
  void deletedAccountsTokensStopAuthenticating() {
    String gone = json(gw.send("POST", "/admin/v1/accounts", "{\"name\":\"gone\"}"))
        .get("id").asText();
    String path = "/admin/v1/accounts/" + gone;
    String token = json(gw.send("POST", path + "/tokens",
        "{\"name\":\"t\",\"role\":\"admin\"}")).get("token").asText();
    String catalog = json(gw.send("POST", path + "/catalogs",
        "{\"name\":\"c\",\"warehouse\":\"file:/tmp/gone\"}")).get("id").asText();
    String auth = "Bearer " + token;
    String iceberg = "/iceberg/v1/" + catalog + "/namespaces";
    // Both surfaces answer first, so the Iceberg side's token cache holds the principal.
    assertThat(gw.send("GET", path + "/catalogs", null, "Authorization", auth).statusCode())
        .isEqualTo(200);
    assertThat(gw.send("GET", iceberg, null, "Authorization", auth).statusCode()).isEqualTo(200);

    assertThat(gw.send("DELETE", path, null).statusCode()).isEqualTo(204);

    assertProblem(gw.send("GET", path + "/catalogs", null, "Authorization", auth), 401,
        "UNAUTHENTICATED");
    assertThat(gw.send("GET", iceberg, null, "Authorization", auth).statusCode()).isEqualTo(401);
    assertThat(gw.send("GET", "/iceberg/v1/config", null, "Authorization", auth).statusCode())
        .isEqualTo(401);
    // The bootstrap token (a server admin of another account) is unaffected.
    assertThat(gw.send("GET", base() + "/catalogs", null).statusCode()).isEqualTo(200);
  }

  @Test
  void fencedAccountsTokensAreRefused() {
    String fenced = json(gw.send("POST", "/admin/v1/accounts", "{\"name\":\"fenced\"}"))
        .get("id").asText();
    String token = json(gw.send("POST", "/admin/v1/accounts/" + fenced + "/tokens",
        "{\"name\":\"t\",\"role\":\"reader\"}")).get("token").asText();
    // A deleter that died after installing the fence: the record stays, the fence too.
    io.icegate.core.model.ResourceRef ref = io.icegate.core.model.ResourceRef.account(fenced);
    gw.gateway().store().run(tx -> {
      new io.icegate.core.durability.DeletionFences().install(tx,
          new io.icegate.core.durability.Fence(ref, "op", java.time.Instant.now(), null));
      return null;
    });
    assertProblem(gw.send("GET", "/admin/v1/accounts/" + fenced, null, "Authorization",
        "Bearer " + token), 401, "UNAUTHENTICATED");
  }

  @Test
  void accountDeletionRemovesIntegrationsAndTheirCredentials() {
    String doomed = json(gw.send("POST", "/admin/v1/accounts", "{\"name\":\"doomed\"}"))
        .get("id").asText();
    String path = "/admin/v1/accounts/" + doomed;
    String integ = json(gw.send("POST", path + "/integrations", integration("d"))).get("id")
        .asText();
    String etag = gw.send("GET", path + "/integrations/" + integ, null).headers()
        .firstValue("ETag").orElseThrow();
    gw.send("PUT", path + "/integrations/" + integ + "/authentication",
        "{\"type\":\"bearer\",\"token\":\"t2\"}", "If-Match", etag);
    String catalog = json(gw.send("POST", path + "/catalogs",
        "{\"name\":\"c\",\"warehouse\":\"s3://b/c\",\"storage\":{\"s3\":"
            + "{\"accessKeyId\":\"AK\",\"secretAccessKey\":\"sk\"}}}")).get("id").asText();
    assertThat(credentialKeys(integ)).isPositive();
    assertThat(credentialKeys(catalog)).isPositive();
    HttpResponse<String> deleted = gw.send("DELETE", path, null);
    assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(204);
    assertThat(credentialKeys(integ)).isZero();
    assertThat(credentialKeys(catalog)).isZero();
    com.apple.foundationdb.Range notes =
        io.icegate.core.store.KeyLayout.credentialCandidates(doomed).range();
    int notesLeft = gw.gateway().store().read(tx -> tx.getRange(notes.begin, notes.end)).size();
    assertThat(notesLeft).isZero();
    assertProblem(gw.send("GET", path + "/integrations/" + integ, null), 404, "NOT_FOUND");
  }

  @Test
  void listsUnderAnAccountThatDoesNotExistAre404() {
    String missing = "/admin/v1/accounts/00000000-0000-0000-0000-00000000dead";
    assertProblem(gw.send("GET", missing, null), 404, "NOT_FOUND");
    assertProblem(gw.send("GET", missing + "/catalogs", null), 404, "NOT_FOUND");
    assertProblem(gw.send("GET", missing + "/integrations", null), 404, "NOT_FOUND");
  }
}
