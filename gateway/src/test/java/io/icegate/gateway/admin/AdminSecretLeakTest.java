package io.icegate.gateway.admin;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.admin.AuthenticationBody;
import io.icegate.admin.model.AdminRequests;
import io.icegate.core.credential.SecretValues;
import io.icegate.core.store.KeyValue;
import io.icegate.gateway.testing.GatewayFixture;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A planted secret never appears in a response body or header, a log line (logback captured at
 * DEBUG for icegate, INFO for Jetty), an exception message, a toString, or in plaintext in the store,
 * across every admin route including failures.
 */
class AdminSecretLeakTest {
  private static final String SECRET = "PLANTED-5ecret-Qx81";

  @Test
  void plantedSecretNeverLeaks() throws Exception {
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    logs.start();
    Logger icegate = (Logger) LoggerFactory.getLogger("io.icegate");
    Logger jetty = (Logger) LoggerFactory.getLogger("org.eclipse.jetty");
    Level icegateLevel = icegate.getLevel();
    Level jettyLevel = jetty.getLevel();
    icegate.addAppender(logs);
    jetty.addAppender(logs);
    icegate.setLevel(Level.DEBUG);
    // Jetty at INFO, as shipped: its DEBUG logging dumps raw request buffers (bodies included),
    // so it must never be enabled where requests carry secrets (docs/admin-api.md says so).
    jetty.setLevel(Level.INFO);
    List<HttpResponse<String>> responses = new ArrayList<>();
    try (GatewayFixture gw = GatewayFixture.start()) {
      ObjectMapper json = new ObjectMapper();
      String account = json.readTree(gw.send("POST", "/admin/v1/accounts",
          "{\"name\":\"leak\"}").body()).get("id").asText();
      String base = "/admin/v1/accounts/" + account;
      String good = "{\"displayName\":\"i\",\"type\":\"ICEBERG_REST\",\"uri\":"
          + "\"https://c.example.com\",\"authentication\":{\"type\":\"bearer\",\"token\":\""
          + SECRET + "\"}}";
      HttpResponse<String> created = gw.send("POST", base + "/integrations", good,
          "Idempotency-Key", "leak-1");
      responses.add(created);
      String id = json.readTree(created.body()).get("id").asText();
      String etag = created.headers().firstValue("ETag").orElseThrow();
      String catalog = "{\"name\":\"c\",\"warehouse\":\"s3://b/p\",\"storage\":{\"s3\":{"
          + "\"accessKeyId\":\"AK\",\"secretAccessKey\":\"" + SECRET + "\"}}}";
      HttpResponse<String> cat = gw.send("POST", base + "/catalogs", catalog);
      responses.add(cat);
      String catalogId = json.readTree(cat.body()).get("id").asText();
      String catalogEtag = cat.headers().firstValue("ETag").orElseThrow();
      String[][] calls = {
        {"POST", base + "/integrations", good, "leak-1"},                     // replay
        {"POST", base + "/integrations", good.replace("\"i\"", "\"j\""), "leak-1"}, // 422
        {"POST", base + "/integrations", good, null},                          // 409
        {"POST", base + "/integrations", good.replace("https://c.example.com",
            "https://u:" + SECRET + "@c.example.com"), null},
        {"POST", base + "/integrations", good.replace("https://c.example.com",
            "https://c.example.com/?token=" + SECRET), null},
        {"POST", base + "/integrations", good.replace("\"uri\"",
            "\"properties\":{\"password\":\"" + SECRET + "\"},\"uri\""), null},
        {"POST", base + "/integrations", good.replace("ICEBERG_REST", "DELTA_SHARING")
            .replace("\"bearer\"", "\"aws-sigv4\""), null},
        {"POST", base + "/integrations", "{\"displayName\":{\"x\":\"" + SECRET + "\"}}", null},
        {"POST", base + "/integrations", "{\"bogus\":\"" + SECRET + "\"}", null},
        {"POST", base + "/integrations", "{\"displayName\":\"" + SECRET, null},
        {"POST", base + "/integrations", good.replace("\"type\":\"bearer\"",
            "\"type\":\"bearer\",\"extra\":\"" + SECRET + "\""), null},
        {"POST", base + "/integrations", good.replace("\"ICEBERG_REST\"",
            "\"" + SECRET + "\""), null},
        {"POST", base + "/catalogs", catalog.replace("s3://b/p", SECRET), null},
        // the token endpoint is persisted and read back as the uri is: no secret in it either
        {"POST", base + "/integrations", oauth("https://u:" + SECRET + "@t.example.com/t"), null},
        {"POST", base + "/integrations", oauth("https://t.example.com/t?token=" + SECRET), null},
        {"GET", base + "/integrations", null, null},
        {"GET", base + "/integrations/" + id, null, null},
        {"GET", base + "/catalogs", null, null},
        {"GET", base + "/catalogs/" + catalogId, null, null},
        {"GET", base, null, null},
        {"GET", "/admin/v1/accounts", null, null},
      };
      for (String[] call : calls) {
        responses.add(call[3] == null ? gw.send(call[0], call[1], call[2])
            : gw.send(call[0], call[1], call[2], "Idempotency-Key", call[3]));
      }
      String auth = "{\"type\":\"bearer\",\"token\":\"" + SECRET + "-2\"}";
      responses.add(gw.send("PUT", base + "/integrations/" + id + "/authentication", auth));
      responses.add(gw.send("PUT", base + "/integrations/" + id + "/authentication", auth,
          "If-Match", "\"stale\""));
      responses.add(gw.send("PUT", base + "/integrations/" + id + "/authentication",
          "{\"type\":\"bearer\",\"token\":7}", "If-Match", etag));
      HttpResponse<String> tokenUri = gw.send("PUT", base + "/integrations/" + id
          + "/authentication", oauthAuthentication("https://t.example.com/t?client_secret="
          + SECRET), "If-Match", etag);
      assertThat(tokenUri.statusCode()).as(tokenUri.body()).isEqualTo(400);
      assertThat(tokenUri.body()).contains("authentication.tokenUri");
      responses.add(tokenUri);
      HttpResponse<String> rotated = gw.send("PUT", base + "/integrations/" + id
          + "/authentication", auth, "If-Match", etag);
      assertThat(rotated.statusCode()).isEqualTo(200);
      responses.add(rotated);
      responses.add(gw.send("PATCH", base + "/integrations/" + id,
          "{\"properties\":{\"secret\":\"" + SECRET + "\"}}", "If-Match",
          rotated.headers().firstValue("ETag").orElseThrow()));
      responses.add(gw.send("PATCH", base + "/catalogs/" + catalogId,
          "{\"storage\":{\"s3\":{\"secretAccessKey\":\"" + SECRET + "-3\"}}}", "If-Match",
          catalogEtag));
      responses.add(gw.send("DELETE", base + "/integrations/" + id, null));
      responses.add(gw.send("DELETE", base + "/catalogs/" + catalogId, null));
      responses.add(gw.send("DELETE", base, null));

      for (HttpResponse<String> r : responses) {
        assertThat(r.body()).as(r.request().method() + " " + r.uri()).doesNotContain(SECRET);
        r.headers().map().forEach((name, values) ->
            assertThat(values.toString()).as(name).doesNotContain(SECRET));
      }
      // Nothing in the store holds the plaintext (records, receipts, ciphertexts).
      List<KeyValue> all = gw.gateway().store().read(tx -> tx.getRange(new byte[0],
          new byte[] {(byte) 0xff}));
      for (KeyValue kv : all) {
        assertThat(new String(kv.value(), StandardCharsets.ISO_8859_1)).doesNotContain(SECRET);
      }
    } finally {
      icegate.detachAppender(logs);
      jetty.detachAppender(logs);
      icegate.setLevel(icegateLevel);
      jetty.setLevel(jettyLevel);
    }
    assertThat(logs.list).isNotEmpty();
    for (ILoggingEvent event : logs.list) {
      assertThat(event.getFormattedMessage()).doesNotContain(SECRET);
      for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
        assertThat(String.valueOf(t.getMessage())).doesNotContain(SECRET);
      }
    }
    // toString of the records that carry secrets on their way in
    assertThat(new SecretValues(Map.of("token", SECRET)).toString()).doesNotContain(SECRET);
    assertThat(new AdminRequests.S3("e", "r", true, "AK", SECRET).toString())
        .doesNotContain(SECRET);
    assertThat(AuthenticationBody.split(new ObjectMapper().readTree(
        "{\"type\":\"bearer\",\"token\":\"" + SECRET + "\"}")).toString()).doesNotContain(SECRET);
  }

  private static String oauth(String tokenUri) {
    return "{\"displayName\":\"o\",\"type\":\"ICEBERG_REST\",\"uri\":\"https://c.example.com\","
        + "\"authentication\":" + oauthAuthentication(tokenUri) + "}";
  }

  private static String oauthAuthentication(String tokenUri) {
    return "{\"type\":\"oauth2-client-credentials\",\"tokenUri\":\"" + tokenUri
        + "\",\"clientId\":\"c\",\"clientSecret\":\"cs\"}";
  }
}
