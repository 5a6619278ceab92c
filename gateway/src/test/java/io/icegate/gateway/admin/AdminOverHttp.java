package io.icegate.gateway.admin;

import static io.icegate.gateway.testing.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.gateway.testing.GatewayFixture;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * The set-up the admin API rule tests share (one test per rule, grouped by resource): a running
 * gateway per test class, called over real HTTP with its bootstrap token, and one account,
 * {@code acme}, the tests write in; plus the request bodies and problem checks they repeat.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AdminOverHttp {
  static final ObjectMapper JSON = new ObjectMapper();

  /** Planted in secret members and URIs: no response or problem may echo it. */
  static final String SECRET = "planted-secret-7f3a9c";

  GatewayFixture gw;

  /** The id of account {@code acme}. */
  String account;

  @BeforeAll
  void start() throws Exception {
    gw = GatewayFixture.start();
    account = json(gw.send("POST", "/admin/v1/accounts", "{\"name\":\"acme\"}")).get("id").asText();
  }

  @AfterAll
  void stop() {
    gw.close();
  }

  /** The admin path of account {@code acme}. */
  String base() {
    return "/admin/v1/accounts/" + account;
  }

  /** An Iceberg REST Integration body named {@code name}, its bearer token {@link #SECRET}. */
  static String integration(String name) {
    return "{\"displayName\":\"" + name + "\",\"type\":\"ICEBERG_REST\","
        + "\"uri\":\"https://catalog.example.com/v1\",\"properties\":{\"warehouse\":\"w\"},"
        + "\"authentication\":{\"type\":\"bearer\",\"token\":\"" + SECRET + "\"}}";
  }

  static void assertProblem(HttpResponse<String> r, int status, String code) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    assertThat(r.headers().firstValue("Content-Type").orElse(""))
        .startsWith("application/problem+json");
    assertThat(json(r).get("code").asText()).isEqualTo(code);
  }

  /** How many keys the store holds under {@code owner}'s credentials. */
  int credentialKeys(String owner) {
    com.apple.foundationdb.Range range =
        io.icegate.core.store.KeyLayout.credentials(owner).range();
    return gw.gateway().store().read(tx -> tx.getRange(range.begin, range.end)).size();
  }
}
