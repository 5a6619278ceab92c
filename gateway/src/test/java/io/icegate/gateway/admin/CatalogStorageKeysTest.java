package io.icegate.gateway.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.gateway.testing.AmbientAwsKeys;
import io.icegate.gateway.testing.GatewayFixture;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The static key pair of a Catalog's {@code storage.s3} ({@code accessKeyId} and its write-only
 * {@code secretAccessKey}) moves as one on PATCH (docs/admin-api.md): naming neither keeps the
 * stored pair, both replace it, both null remove it, one half alone is a 400 naming the other and
 * writes nothing. The kept pair is proven by use: the gateway's S3FileIO writes to s3proxy with it
 * while the server's ambient AWS keys are wrong.
 */
class CatalogStorageKeysTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static ObjectStoreFixture objects;
  private static GatewayFixture gw;
  private static String base;
  private static AmbientAwsKeys ambient;

  @BeforeAll
  static void start() throws Exception {
    ObjectStoreFixture.useChecksumsOnlyWhenRequired();
    objects = ObjectStoreFixture.startS3Proxy();
    objects.createBucket("lake");
    // wrong ambient keys: only the Catalog's own pair can write to the store
    ambient = AmbientAwsKeys.wrong();
    gw = GatewayFixture.start();
    base = "/admin/v1/accounts/" + gw.defaultAccountId() + "/catalogs";
  }

  @AfterAll
  static void stop() throws Exception {
    gw.close();
    objects.close();
    ambient.close();
  }

  private static JsonNode s3(HttpResponse<String> response) throws Exception {
    assertThat(response.body()).doesNotContain(objects.secretAccessKey());
    return JSON.readTree(response.body()).at("/storage/s3");
  }

  private static HttpResponse<String> patch(String id, String s3Members) {
    String etag = gw.send("GET", base + "/" + id, null).headers().firstValue("ETag").orElseThrow();
    return gw.send("PATCH", base + "/" + id, "{\"storage\":{\"s3\":{" + s3Members + "}}}",
        "If-Match", etag);
  }

  private static String endpoint(String value) {
    return "\"endpoint\":\"" + value + "\",\"region\":\"us-east-1\",\"pathStyleAccess\":true";
  }

  private static String keys(String id, String secret) {
    return ",\"accessKeyId\":" + id + ",\"secretAccessKey\":" + secret;
  }

  private static void createTable(String catalog, String name) {
    Map<String, String> props = new HashMap<>();
    props.put("uri", gw.icebergUri());
    props.put("warehouse", catalog);
    props.put("token", GatewayFixture.TOKEN);
    try (RESTCatalog client = new RESTCatalog()) {
      client.initialize(catalog, props);
      if (!client.namespaceExists(Namespace.of("ns"))) {
        client.createNamespace(Namespace.of("ns"));
      }
      client.createTable(TableIdentifier.of("ns", name),
          new Schema(Types.NestedField.required(1, "id", Types.LongType.get())));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void aPatchWithoutTheKeysKeepsTheStoredPair() throws Exception {
    // created against a port nobody serves; the PATCH moves it to the store, naming no key
    HttpResponse<String> created = gw.send("POST", base, "{\"name\":\"kept\",\"warehouse\":"
        + "\"s3://lake/kept\",\"storage\":{\"s3\":{" + endpoint("http://127.0.0.1:9")
        + keys("\"" + objects.accessKeyId() + "\"", "\"" + objects.secretAccessKey() + "\"")
        + "}}}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String id = JSON.readTree(created.body()).get("id").asText();
    long generation = s3(created).get("credentialGeneration").asLong();

    HttpResponse<String> moved = patch(id, endpoint(objects.endpoint().toString()));
    assertThat(moved.statusCode()).as(moved.body()).isEqualTo(200);
    JsonNode s3 = s3(moved);
    assertThat(s3.get("endpoint").asText()).isEqualTo(objects.endpoint().toString());
    assertThat(s3.get("accessKeyId").asText()).isEqualTo(objects.accessKeyId());
    assertThat(s3.get("credentialsConfigured").asBoolean()).isTrue();
    assertThat(s3.get("credentialGeneration").asLong()).isEqualTo(generation);
    assertThat(s3(gw.send("GET", base + "/" + id, null))).isEqualTo(s3);

    createTable("kept", "t"); // the kept pair signs the metadata write
    try (var client = objects.newClient()) {
      assertThat(client.listObjectsV2(r -> r.bucket("lake").prefix("kept/ns/t/metadata/"))
          .contents()).isNotEmpty();
    }

    // The GET view's key id sent back unchanged without a secret keeps the pair as well.
    HttpResponse<String> roundTrip = patch(id, endpoint(objects.endpoint().toString())
        + ",\"accessKeyId\":\"" + objects.accessKeyId() + "\"");
    assertThat(roundTrip.statusCode()).as(roundTrip.body()).isEqualTo(200);
    assertThat(s3(roundTrip).get("credentialGeneration").asLong()).isEqualTo(generation);

    // A setting that needs the pair sees the stored one when the PATCH names neither half.
    HttpResponse<String> vending = patch(id, endpoint(objects.endpoint().toString())
        + ",\"vendStaticKeys\":true");
    assertThat(vending.statusCode()).as(vending.body()).isEqualTo(200);
    assertThat(s3(vending).get("vending").asText()).isEqualTo("static-keys");
    assertThat(s3(vending).get("accessKeyId").asText()).isEqualTo(objects.accessKeyId());
    assertThat(s3(vending).get("credentialGeneration").asLong()).isEqualTo(generation);
  }

  @Test
  void oneHalfOfThePairIsRefusedAndWritesNothing() throws Exception {
    HttpResponse<String> created = gw.send("POST", base, "{\"name\":\"halves\",\"warehouse\":"
        + "\"s3://lake/halves\",\"storage\":{\"s3\":{" + endpoint(objects.endpoint().toString())
        + keys("\"AKOLD\"", "\"old-secret-0123\"") + "}}}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String id = JSON.readTree(created.body()).get("id").asText();
    String before = gw.send("GET", base + "/" + id, null).body();
    String[][] cases = {
      {",\"accessKeyId\":\"AKNEW\"", "storage.s3.secretAccessKey"},
      {",\"secretAccessKey\":\"" + objects.secretAccessKey() + "\"", "storage.s3.accessKeyId"},
      {",\"accessKeyId\":null", "storage.s3.secretAccessKey"},
      {",\"secretAccessKey\":null", "storage.s3.accessKeyId"},
      {keys("\"AKNEW\"", "null"), "storage.s3.secretAccessKey"},
      {keys("null", "\"" + objects.secretAccessKey() + "\""), "storage.s3.accessKeyId"},
    };
    for (String[] c : cases) {
      HttpResponse<String> refused = patch(id, endpoint(objects.endpoint().toString()) + c[0]);
      assertThat(refused.statusCode()).as(c[0] + " -> " + refused.body()).isEqualTo(400);
      assertThat(refused.headers().firstValue("Content-Type").orElse(""))
          .startsWith("application/problem+json");
      JsonNode problem = JSON.readTree(refused.body());
      assertThat(problem.get("code").asText()).isEqualTo("INVALID_ARGUMENT");
      assertThat(refused.body()).as(c[0]).contains(c[1])
          .doesNotContain(objects.secretAccessKey()).doesNotContain("old-secret-0123");
    }
    assertThat(gw.send("GET", base + "/" + id, null).body()).isEqualTo(before);
    // a create takes both halves or neither too
    HttpResponse<String> half = gw.send("POST", base, "{\"name\":\"half\",\"warehouse\":"
        + "\"s3://lake/half\",\"storage\":{\"s3\":{\"accessKeyId\":\"AKONLY\"}}}");
    assertThat(half.statusCode()).as(half.body()).isEqualTo(400);
    assertThat(half.body()).contains("storage.s3.secretAccessKey");
  }

  @Test
  void bothHalvesReplaceThePairAndBothNullRemoveIt() throws Exception {
    HttpResponse<String> created = gw.send("POST", base, "{\"name\":\"rotated\",\"warehouse\":"
        + "\"s3://lake/rotated\",\"storage\":{\"s3\":{" + endpoint(objects.endpoint().toString())
        + keys("\"AKOLD\"", "\"old-secret-0123\"") + "}}}");
    String id = JSON.readTree(created.body()).get("id").asText();
    long generation = s3(created).get("credentialGeneration").asLong();

    HttpResponse<String> rotated = patch(id, endpoint(objects.endpoint().toString())
        + keys("\"" + objects.accessKeyId() + "\"", "\"" + objects.secretAccessKey() + "\""));
    assertThat(rotated.statusCode()).as(rotated.body()).isEqualTo(200);
    assertThat(s3(rotated).get("accessKeyId").asText()).isEqualTo(objects.accessKeyId());
    assertThat(s3(rotated).get("credentialGeneration").asLong()).isGreaterThan(generation);
    createTable("rotated", "t"); // the new pair is the one in use

    HttpResponse<String> removed =
        patch(id, endpoint(objects.endpoint().toString()) + keys("null", "null"));
    assertThat(removed.statusCode()).as(removed.body()).isEqualTo(200);
    JsonNode s3 = s3(removed);
    assertThat(s3.get("accessKeyId").isNull()).isTrue();
    assertThat(s3.get("credentialsConfigured").asBoolean()).isFalse();
    assertThat(s3.get("credentialGeneration").asLong()).isZero();
    com.apple.foundationdb.Range range =
        io.icegate.core.store.KeyLayout.credentials(id).range();
    List<io.icegate.core.store.KeyValue> stored =
        gw.gateway().store().read(tx -> tx.getRange(range.begin, range.end));
    assertThat(stored).isEmpty();
  }
}
