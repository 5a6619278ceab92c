package io.icegate.gateway.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.gateway.testing.GatewayFixture;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The admin API's credential-vending settings of a catalog ({@code storage.s3}): accepted,
 * defaulted and shown; every invalid value refused with a 400 problem naming the member.
 */
class CatalogVendingSettingsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ROLE = "arn:aws:iam::123456789012:role/lake-reader";
  private static final String SECRET = "vending-settings-secret-0123";
  private static GatewayFixture gw;
  private static String base;

  @BeforeAll
  static void start() throws Exception {
    gw = GatewayFixture.start();
    base = "/admin/v1/accounts/" + JSON.readTree(gw.send("POST", "/admin/v1/accounts",
        "{\"name\":\"settings\"}").body()).get("id").asText();
  }

  @AfterAll
  static void stop() {
    gw.close();
  }

  @Test
  void assumeRoleSettingsAreStoredWithTheDefaultDurationAndShown() throws Exception {
    HttpResponse<String> created = create("role", "\"accessKeyId\":\"AKIDEXAMPLE\","
        + "\"secretAccessKey\":\"" + SECRET + "\",\"roleArn\":\"" + ROLE + "\"");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    JsonNode s3 = JSON.readTree(created.body()).get("storage").get("s3");
    assertThat(s3.get("vending").asText()).isEqualTo("assume-role");
    assertThat(s3.get("roleArn").asText()).isEqualTo(ROLE);
    assertThat(s3.get("durationSeconds").asInt()).isEqualTo(3600);
    assertThat(s3.get("stsEndpoint").isNull()).isTrue();
    assertThat(created.body()).doesNotContain(SECRET);

    // A PATCH replaces storage as a whole; the secret generation is kept.
    String id = JSON.readTree(created.body()).get("id").asText();
    HttpResponse<String> patched = gw.send("PATCH", base + "/catalogs/" + id,
        "{\"storage\":{\"s3\":{\"accessKeyId\":\"AKIDEXAMPLE\",\"roleArn\":\"" + ROLE
            + "\",\"stsEndpoint\":\"https://sts.eu-west-1.amazonaws.com\","
            + "\"durationSeconds\":43200,\"externalId\":\"tenant-7\"}}}",
        "If-Match", created.headers().firstValue("ETag").orElseThrow());
    assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
    s3 = JSON.readTree(patched.body()).get("storage").get("s3");
    assertThat(s3.get("durationSeconds").asInt()).isEqualTo(43200);
    assertThat(s3.get("stsEndpoint").asText()).isEqualTo("https://sts.eu-west-1.amazonaws.com");
    assertThat(s3.get("externalId").asText()).isEqualTo("tenant-7");
    assertThat(s3.get("credentialsConfigured").asBoolean()).isTrue();
  }

  @Test
  void staticKeyVendingIsAnExplicitChoiceThatNeedsTheKeys() throws Exception {
    HttpResponse<String> plain = create("plain", "\"accessKeyId\":\"AKIDEXAMPLE\","
        + "\"secretAccessKey\":\"" + SECRET + "\"");
    assertThat(JSON.readTree(plain.body()).get("storage").get("s3").get("vending").asText())
        .isEqualTo("none");
    HttpResponse<String> vending = create("static", "\"accessKeyId\":\"AKIDEXAMPLE\","
        + "\"secretAccessKey\":\"" + SECRET + "\",\"vendStaticKeys\":true");
    assertThat(vending.statusCode()).as(vending.body()).isEqualTo(201);
    assertThat(JSON.readTree(vending.body()).get("storage").get("s3").get("vending").asText())
        .isEqualTo("static-keys");
    assertThat(vending.body()).doesNotContain(SECRET);
  }

  @Test
  void invalidSettingsAre400ProblemsNamingTheMember() throws Exception {
    String[][] cases = {
      {"\"roleArn\":\"" + ROLE + "\",\"durationSeconds\":899", "storage.s3.durationSeconds"},
      {"\"roleArn\":\"" + ROLE + "\",\"durationSeconds\":43201", "storage.s3.durationSeconds"},
      {"\"roleArn\":\"arn:aws:s3:::bucket/not-a-role\"", "storage.s3.roleArn"},
      {"\"roleArn\":\"role/x\"", "storage.s3.roleArn"},
      {"\"roleArn\":\"" + ROLE + "\",\"stsEndpoint\":\"ftp://sts.example.com\"",
          "storage.s3.stsEndpoint"},
      {"\"roleArn\":\"" + ROLE + "\",\"stsEndpoint\":\"https://u:p@sts.example.com\"",
          "storage.s3.stsEndpoint"},
      {"\"roleArn\":\"" + ROLE + "\",\"stsEndpoint\":\"sts.example.com\"",
          "storage.s3.stsEndpoint"},
      {"\"roleArn\":\"" + ROLE + "\",\"externalId\":\"x\"", "storage.s3.externalId"},
      {"\"stsEndpoint\":\"https://sts.example.com\"", "storage.s3.stsEndpoint"},
      {"\"durationSeconds\":3600", "storage.s3.durationSeconds"},
      {"\"externalId\":\"tenant-7\"", "storage.s3.externalId"},
      // the object store's endpoint: a URI the FileIO can use, and never a place for a password
      {"\"endpoint\":\"not a url\"", "storage.s3.endpoint"},
      {"\"endpoint\":\"s3.example.com\"", "storage.s3.endpoint"},
      {"\"endpoint\":\"http://127.0.0.1:99999\"", "storage.s3.endpoint"},
      {"\"endpoint\":\"http://u:" + SECRET + "@127.0.0.1:1\"", "storage.s3.endpoint"},
      {"\"vendStaticKeys\":true", "storage.s3.vendStaticKeys"},
      {"\"vendStaticKeys\":true,\"accessKeyId\":\"AKIDEXAMPLE\"", "storage.s3.vendStaticKeys"},
      {"\"vendStaticKeys\":true,\"accessKeyId\":\"AKIDEXAMPLE\",\"secretAccessKey\":\"" + SECRET
          + "\",\"roleArn\":\"" + ROLE + "\"", "storage.s3.vendStaticKeys"},
    };
    int n = 0;
    for (String[] c : cases) {
      HttpResponse<String> r = create("bad" + n++, c[0]);
      assertThat(r.statusCode()).as(c[0] + " -> " + r.body()).isEqualTo(400);
      assertThat(r.headers().firstValue("Content-Type").orElse(""))
          .startsWith("application/problem+json");
      assertThat(r.body()).as(c[0]).contains(c[1]).doesNotContain(SECRET);
    }
    HttpResponse<String> list = gw.send("GET", base + "/catalogs", null);
    assertThat(list.body()).doesNotContain("\"bad");
  }

  private static HttpResponse<String> create(String name, String s3Members) {
    return gw.send("POST", base + "/catalogs", "{\"name\":\"" + name
        + "\",\"warehouse\":\"s3://lake/" + name + "\",\"storage\":{\"s3\":{" + s3Members + "}}}");
  }
}
