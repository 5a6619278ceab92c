package io.icegate.gateway.admin;

import static io.icegate.gateway.testing.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * CatalogIntegrations through the admin API: immutable type, rotation and generations, the
 * connection settings and outbound addresses refused (naming the key, never the secret), the
 * authentication each type accepts, and deletion with an optional If-Match.
 */
class IntegrationApiTest extends AdminOverHttp {

  @Test
  void integrationRulesTypeImmutableRotationAndGenerations() {
    JsonNode created = json(gw.send("POST", base() + "/integrations", integration("rot")));
    String id = created.get("id").asText();
    assertThat(created.get("credentialGeneration").asLong()).isEqualTo(1);
    String path = base() + "/integrations/" + id;
    String etag = gw.send("GET", path, null).headers().firstValue("ETag").orElseThrow();
    assertProblem(gw.send("PATCH", path, "{\"type\":\"UNITY\"}", "If-Match", etag), 400,
        "IMMUTABLE_MEMBER");
    HttpResponse<String> renamed = gw.send("PATCH", path, "{\"displayName\":\"rot2\"}",
        "If-Match", etag);
    assertThat(json(renamed).get("configurationGeneration").asLong()).isEqualTo(1);
    HttpResponse<String> moved = gw.send("PATCH", path,
        "{\"uri\":\"https://other.example.com/v1\"}", "If-Match",
        renamed.headers().firstValue("ETag").orElseThrow());
    assertThat(json(moved).get("configurationGeneration").asLong()).isEqualTo(2);
    assertProblem(gw.send("PUT", path + "/authentication",
        "{\"type\":\"bearer\",\"token\":\"new-" + SECRET + "\"}"), 428, "PRECONDITION_REQUIRED");
    HttpResponse<String> rotated = gw.send("PUT", path + "/authentication",
        "{\"type\":\"bearer\",\"token\":\"new-" + SECRET + "\"}", "If-Match",
        moved.headers().firstValue("ETag").orElseThrow());
    assertThat(rotated.statusCode()).as(rotated.body()).isEqualTo(200);
    assertThat(json(rotated).get("credentialGeneration").asLong()).isEqualTo(2);
    assertThat(rotated.body()).doesNotContain(SECRET);
  }

  @Test
  void connectionBoundaryNamesTheKeyNeverTheValue() {
    String body = "{\"displayName\":\"bad\",\"type\":\"ICEBERG_REST\","
        + "\"uri\":\"https://c.example.com/v1\",\"properties\":{\"client_secret\":\"" + SECRET
        + "\"},\"authentication\":{\"type\":\"bearer\",\"token\":\"t\"}}";
    HttpResponse<String> r = gw.send("POST", base() + "/integrations", body);
    assertProblem(r, 400, "CONNECTION_SETTING_REJECTED");
    assertThat(r.body()).contains("client_secret").doesNotContain(SECRET);
    for (String uri : new String[] {"ftp://c.example.com", "https://u:" + SECRET + "@c.example.com",
        "https://c.example.com/v1#frag", "https://c.example.com/v1?token=" + SECRET,
        "https://c.example.com:99999/v1", "https://c.example.com:0/v1"}) {
      HttpResponse<String> bad = gw.send("POST", base() + "/integrations",
          integration("u").replace("https://catalog.example.com/v1", uri));
      assertProblem(bad, 400, "CONNECTION_SETTING_REJECTED");
      assertThat(bad.body()).doesNotContain(SECRET);
    }
    assertProblem(gw.send("POST", base() + "/integrations",
        integration("meta").replace("catalog.example.com", "169.254.169.254")), 400,
        "OUTBOUND_ADDRESS_REJECTED");
  }

  @Test
  void providerPropertyValuesAreCheckedAtCreateAndUpdateNamingTheProperty() {
    String strict = "delta.sharing.strict-access-modes";
    String sharing = "{\"displayName\":\"share\",\"type\":\"DELTA_SHARING\","
        + "\"uri\":\"https://sharing.example.com/delta-sharing\",\"properties\":{\"" + strict
        + "\":\"VALUE\"},\"authentication\":{\"type\":\"bearer\",\"token\":\"" + SECRET
        + "\"}}";
    HttpResponse<String> refused = gw.send("POST", base() + "/integrations",
        sharing.replace("VALUE", "yes"));
    assertProblem(refused, 400, "CONNECTION_SETTING_REJECTED");
    assertThat(refused.body()).contains(strict).doesNotContain(SECRET);
    HttpResponse<String> created = gw.send("POST", base() + "/integrations",
        sharing.replace("VALUE", "true"));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String path = base() + "/integrations/" + json(created).get("id").asText();
    HttpResponse<String> patched = gw.send("PATCH", path,
        "{\"properties\":{\"" + strict + "\":\"maybe\"}}", "If-Match",
        created.headers().firstValue("ETag").orElseThrow());
    assertProblem(patched, 400, "CONNECTION_SETTING_REJECTED");
    assertThat(patched.body()).contains(strict);

    // the Iceberg REST provider: a name it would refuse at connection (a tryout's PATCH with
    // oauth2-server-uri answered 200 and broke the next round), and a timeout that is no number
    for (String properties : new String[] {"{\"oauth2-server-uri\":\"https://c.example.com/t\"}",
        "{\"rest.client.socket-timeout-ms\":\"abc\"}", "{\"foo\":\"bar\"}"}) {
      HttpResponse<String> bad = gw.send("POST", base() + "/integrations",
          integration("p").replace("\"properties\":{\"warehouse\":\"w\"}",
              "\"properties\":" + properties));
      assertProblem(bad, 400, "CONNECTION_SETTING_REJECTED");
      assertThat(bad.body()).contains(properties.substring(2, properties.indexOf('"', 2)));
    }
    HttpResponse<String> rest = gw.send("POST", base() + "/integrations", integration("rest"));
    assertThat(rest.statusCode()).as(rest.body()).isEqualTo(201);
    assertProblem(gw.send("PATCH", base() + "/integrations/" + json(rest).get("id").asText(),
        "{\"properties\":{\"oauth2-server-uri\":\"https://c.example.com/t\"}}", "If-Match",
        rest.headers().firstValue("ETag").orElseThrow()), 400, "CONNECTION_SETTING_REJECTED");
  }

  @Test
  void outboundAddressPolicyOnCreateAndOnUriChange() {
    HttpResponse<String> mapped = gw.send("POST", base() + "/integrations",
        integration("mapped").replace("catalog.example.com", "[::ffff:169.254.169.254]"));
    assertProblem(mapped, 400, "OUTBOUND_ADDRESS_REJECTED");
    assertThat(mapped.body()).contains("::ffff:169.254.169.254");
    JsonNode created = json(gw.send("POST", base() + "/integrations",
        integration("moving").replace("catalog.example.com", "127.0.0.1")));
    String path = base() + "/integrations/" + created.get("id").asText();
    String etag = gw.send("GET", path, null).headers().firstValue("ETag").orElseThrow();
    assertProblem(gw.send("PATCH", path, "{\"uri\":\"https://[fd00:ec2::254]/v1\"}",
        "If-Match", etag), 400, "OUTBOUND_ADDRESS_REJECTED");
    assertThat(gw.send("GET", path, null).body()).contains("127.0.0.1");
  }

  @Test
  void authenticationCompatibilityPerType() {
    String unitySigv4 = "{\"displayName\":\"uc\",\"type\":\"UNITY\",\"uri\":\"https://u.example.com\","
        + "\"authentication\":{\"type\":\"aws-sigv4\",\"region\":\"r\",\"signingName\":\"s\","
        + "\"accessKeyId\":\"a\",\"secretAccessKey\":\"" + SECRET + "\"}}";
    assertProblem(gw.send("POST", base() + "/integrations", unitySigv4), 400,
        "AUTHENTICATION_NOT_SUPPORTED");
    String sharingOauth = "{\"displayName\":\"ds\",\"type\":\"DELTA_SHARING\","
        + "\"uri\":\"https://d.example.com\",\"authentication\":{\"type\":"
        + "\"oauth2-client-credentials\",\"clientId\":\"c\",\"clientSecret\":\"" + SECRET + "\"}}";
    assertProblem(gw.send("POST", base() + "/integrations", sharingOauth), 400,
        "AUTHENTICATION_NOT_SUPPORTED");
  }

  @Test
  void deleteTakesAnOptionalIfMatchAndRefusesAStaleOne() {
    JsonNode created = json(gw.send("POST", base() + "/integrations", integration("del")));
    String path = base() + "/integrations/" + created.get("id").asText();
    String stale = "\"" + created.get("id").asText() + "/99\"";
    assertProblem(gw.send("DELETE", path, null, "If-Match", stale), 412, "GENERATION_MISMATCH");
    assertThat(gw.send("DELETE", path, null).statusCode()).isEqualTo(204);
    assertProblem(gw.send("DELETE", path, null), 404, "NOT_FOUND");
  }
}
