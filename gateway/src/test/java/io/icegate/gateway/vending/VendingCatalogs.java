package io.icegate.gateway.vending;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.core.store.KeyValue;
import io.icegate.gateway.testing.GatewayFixture;
import io.icegate.gateway.testing.StsFixture;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.slf4j.LoggerFactory;

/**
 * The world {@link CredentialVendingTest} runs in, started once per test class: three Catalogs of
 * one account on one S3 store (s3proxy) behind a real gateway, {@code sts} vending through STS
 * AssumeRole (the loopback {@link StsFixture}), {@code static} vending its static keys, {@code
 * none} vending nothing, each with table {@code ns.t}; a writer and a reader token; every log line
 * captured (icegate at DEBUG). Plus the calls and checks the tests repeat: Iceberg requests by
 * Catalog name, the session a vended config carries, the policy an AssumeRole asked for.
 */
abstract class VendingCatalogs {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String ROLE = "arn:aws:iam::123456789012:role/icegate-vending-test";
  static final String DELEGATION = "X-Iceberg-Access-Delegation";
  static ObjectStoreFixture objects;
  static StsFixture sts;
  static GatewayFixture gw;
  /** Every log line of the run, for the test that searches them for secrets. */
  static ListAppender<ILoggingEvent> logs;
  static Level icegateLevel;
  /** The admin path of the account. */
  static String base;
  /** {@code Authorization} values of a writer and a reader token of the account. */
  static String writer;
  static String reader;
  /** Catalog name to id, the Catalog's Iceberg prefix. */
  static final Map<String, String> prefixes = new HashMap<>();

  @BeforeAll
  static void start() throws Exception {
    logs = new ListAppender<>();
    logs.start();
    Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.addAppender(logs);
    Logger icegate = (Logger) LoggerFactory.getLogger("io.icegate");
    icegateLevel = icegate.getLevel();
    icegate.setLevel(Level.DEBUG);

    objects = ObjectStoreFixture.startS3Proxy();
    objects.createBucket("lake");
    ObjectStoreFixture.useChecksumsOnlyWhenRequired();
    sts = StsFixture.start();
    gw = GatewayFixture.start();
    String account = json(gw.send("POST", "/admin/v1/accounts", "{\"name\":\"vend\"}"))
        .get("id").asText();
    base = "/admin/v1/accounts/" + account;
    writer = token("w", "writer");
    reader = token("r", "reader");
    catalog("sts", ",\"roleArn\":\"" + ROLE + "\",\"stsEndpoint\":\"" + sts.endpoint()
        + "\",\"durationSeconds\":1800,\"externalId\":\"icegate-test-external\"");
    catalog("static", ",\"vendStaticKeys\":true");
    catalog("none", "");
    for (String name : prefixes.keySet()) {
      assertThat(iceberg("POST", name, "/namespaces", "{\"namespace\":[\"ns\"]}", writer)
          .statusCode()).isEqualTo(200);
      assertThat(iceberg("POST", name, "/namespaces/ns/tables", createBody("t", false), writer)
          .statusCode()).isEqualTo(200);
    }
    // One table per test on the STS Catalog: sessions are cached per table and access, so tests
    // that count AssumeRole calls must not share one.
    for (String table : List.of("rw", "fresh", "short", "refused", "admin", "logged")) {
      assertThat(iceberg("POST", "sts", "/namespaces/ns/tables", createBody(table, false), writer)
          .statusCode()).isEqualTo(200);
    }
  }

  @AfterAll
  static void stop() throws Exception {
    ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).detachAppender(logs);
    ((Logger) LoggerFactory.getLogger("io.icegate")).setLevel(icegateLevel);
    if (gw != null) {
      gw.close();
    }
    if (sts != null) {
      sts.close();
    }
    if (objects != null) {
      objects.close();
    }
  }

  static void assertNoIssuedSecretIn(List<String> texts, String where) {
    for (StsFixture.Issued issued : sts.issued()) {
      for (String text : texts) {
        assertThat(text).as(where).doesNotContain(issued.sessionToken())
            .doesNotContain(issued.secretAccessKey());
      }
    }
  }

  static List<String> allStoreValues() {
    List<KeyValue> all = gw.gateway().store().read(tx -> tx.getRange(new byte[0],
        new byte[] {(byte) 0xff}));
    List<String> values = new ArrayList<>();
    for (KeyValue kv : all) {
      values.add(new String(kv.value(), StandardCharsets.ISO_8859_1));
    }
    return values;
  }

  /** The issued session these credential properties carry (all three parts must agree). */
  static StsFixture.Issued issuedFor(JsonNode config) {
    String keyId = config.get("s3.access-key-id").asText();
    StsFixture.Issued issued = sts.issued().stream()
        .filter(i -> i.accessKeyId().equals(keyId)).findFirst().orElseThrow(
            () -> new AssertionError("not an issued session: " + keyId));
    assertThat(config.get("s3.secret-access-key").asText()).isEqualTo(issued.secretAccessKey());
    assertThat(config.get("s3.session-token").asText()).isEqualTo(issued.sessionToken());
    return issued;
  }

  static JsonNode single(JsonNode array) {
    assertThat(array).isNotNull();
    assertThat(array.size()).isEqualTo(1);
    return array.get(0);
  }

  static List<String> objectResources(JsonNode policy) {
    return new StsFixture.SessionPolicy(policy).objectResources();
  }

  static List<String> objectActions(JsonNode policy) {
    return new StsFixture.SessionPolicy(policy).objectActions();
  }

  static List<String> listPrefixes(JsonNode policy) {
    return new StsFixture.SessionPolicy(policy).listPrefixes();
  }

  static String createBody(String name, boolean staged) {
    return "{\"name\":\"" + name + "\",\"schema\":{\"type\":\"struct\",\"schema-id\":0,"
        + "\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":false,\"type\":\"long\"}]}"
        + (staged ? ",\"stage-create\":true" : "") + "}";
  }

  static RESTCatalog client(String catalog, String token) {
    Map<String, String> props = new HashMap<>();
    props.put(CatalogProperties.URI, gw.icebergUri());
    props.put(CatalogProperties.WAREHOUSE_LOCATION, catalog);
    props.put("token", token.substring("Bearer ".length()));
    props.put(CatalogProperties.FILE_IO_IMPL, "org.apache.iceberg.aws.s3.S3FileIO");
    props.put("header." + DELEGATION, "vended-credentials");
    RESTCatalog client = new RESTCatalog();
    client.initialize("vend-" + catalog, props);
    return client;
  }

  static HttpResponse<String> iceberg(String method, String catalog, String path,
      String body, String authorization, String... headers) {
    String[] all = new String[headers.length + 2];
    all[0] = "Authorization";
    all[1] = authorization;
    System.arraycopy(headers, 0, all, 2, headers.length);
    return gw.send(method, "/iceberg/v1/" + prefixes.get(catalog) + path, body, all);
  }

  static void catalog(String name, String vending) throws Exception {
    HttpResponse<String> created = gw.send("POST", base + "/catalogs", "{\"name\":\"" + name
        + "\",\"warehouse\":\"s3://lake/" + name + "\",\"storage\":{\"s3\":{\"endpoint\":\""
        + objects.endpoint() + "\",\"region\":\"us-east-1\",\"pathStyleAccess\":true,"
        + "\"accessKeyId\":\"" + objects.accessKeyId() + "\",\"secretAccessKey\":\""
        + objects.secretAccessKey() + "\"" + vending + "}}}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    prefixes.put(name, JSON.readTree(created.body()).get("id").asText());
  }

  static String token(String name, String role) throws Exception {
    return "Bearer " + json(gw.send("POST", base + "/tokens",
        "{\"name\":\"" + name + "\",\"role\":\"" + role + "\"}")).get("token").asText();
  }

  static JsonNode json(HttpResponse<String> response) {
    try {
      return JSON.readTree(response.body());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
