package io.icegate.gateway.vending;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.gateway.testing.StsFixture;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.StorageCredential;
import org.apache.iceberg.io.SupportsStorageCredentials;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Vended credentials for native tables through the real gateway: three Catalogs on one S3 store
 * (s3proxy), one vending through STS AssumeRole (the loopback {@link StsFixture}), one vending its
 * static keys, one vending nothing. Clients are raw HTTP and iceberg-core's RESTCatalog. Every log
 * line of the run is captured (icegate at DEBUG) and searched for the vended secrets. {@link
 * VendingCatalogs} sets this world up.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CredentialVendingTest extends VendingCatalogs {

  @Test
  void delegatedLoadVendsAnAssumedRoleScopedToTheTable() throws Exception {
    int before = sts.requests().size();
    HttpResponse<String> load = iceberg("GET", "sts", "/namespaces/ns/tables/t", null, reader,
        DELEGATION, "vended-credentials");
    assertThat(load.statusCode()).isEqualTo(200);
    assertThat(load.headers().firstValue("ETag")).isEmpty();
    assertThat(load.headers().firstValue("Cache-Control")).contains("no-store");
    JsonNode body = JSON.readTree(load.body());
    String location = body.get("metadata").get("location").asText();
    assertThat(location).isEqualTo("s3://lake/sts/ns/t");
    JsonNode credential = single(body.get("storage-credentials"));
    assertThat(credential.get("prefix").asText()).isEqualTo(location);
    StsFixture.Issued issued = issuedFor(credential.get("config"));
    assertThat(credential.get("config").get("s3.endpoint").asText())
        .isEqualTo(objects.endpoint().toString());
    assertThat(credential.get("config").get("s3.session-token-expires-at-ms").asLong())
        .isEqualTo(issued.expiration().toEpochMilli());
    assertThat(body.get("config").get("client.refresh-credentials-endpoint").asText())
        .isEqualTo("v1/" + prefixes.get("sts") + "/namespaces/ns/tables/t/credentials");

    // Exactly one AssumeRole, as configured, signed with the Catalog's own keys, read-only.
    List<StsFixture.Received> asked = sts.requests().subList(before, sts.requests().size());
    assertThat(asked).hasSize(1);
    StsFixture.Received request = asked.get(0);
    assertThat(request.get("Action")).isEqualTo("AssumeRole");
    assertThat(request.get("RoleArn")).isEqualTo(ROLE);
    assertThat(request.get("DurationSeconds")).isEqualTo("1800");
    assertThat(request.get("ExternalId")).isEqualTo("icegate-test-external");
    assertThat(request.get("RoleSessionName")).isEqualTo("icegate-" + prefixes.get("sts"));
    assertThat(request.signingKeyId()).isEqualTo(objects.accessKeyId());
    JsonNode policy = JSON.readTree(request.get("Policy"));
    assertThat(objectResources(policy)).containsExactly("arn:aws:s3:::lake/sts/ns/t/*");
    assertThat(objectActions(policy)).contains("s3:GetObject").doesNotContain("s3:PutObject");
    assertThat(listPrefixes(policy)).containsExactlyInAnyOrder("sts/ns/t/", "sts/ns/t/*");
    assertThat(request.get("Policy")).doesNotContain("lake/sts/ns/t*").doesNotContain("t2");

    // Reused from memory: no second AssumeRole, the same session.
    HttpResponse<String> again = iceberg("GET", "sts", "/namespaces/ns/tables/t", null, reader,
        DELEGATION, "vended-credentials");
    assertThat(sts.requests()).hasSize(before + 1);
    assertThat(issuedFor(single(JSON.readTree(again.body()).get("storage-credentials"))
        .get("config"))).isEqualTo(issued);
  }

  @Test
  void aWriterGetsReadWriteCredentialsAndCreateTableVendsToo() throws Exception {
    int before = sts.requests().size();
    HttpResponse<String> load = iceberg("GET", "sts", "/namespaces/ns/tables/rw", null, writer,
        DELEGATION, "vended-credentials");
    assertThat(load.statusCode()).isEqualTo(200);
    assertThat(sts.requests()).hasSize(before + 1);
    JsonNode policy = JSON.readTree(sts.requests().get(before).get("Policy"));
    assertThat(objectActions(policy)).contains("s3:GetObject", "s3:PutObject", "s3:DeleteObject");
    assertThat(objectResources(policy)).containsExactly("arn:aws:s3:::lake/sts/ns/rw/*");

    for (boolean staged : new boolean[] {false, true}) {
      String name = staged ? "staged" : "created";
      HttpResponse<String> created = iceberg("POST", "sts", "/namespaces/ns/tables",
          createBody(name, staged), writer, DELEGATION, "vended-credentials");
      assertThat(created.statusCode()).as(name).isEqualTo(200);
      JsonNode credential = single(JSON.readTree(created.body()).get("storage-credentials"));
      assertThat(credential.get("prefix").asText()).isEqualTo("s3://lake/sts/ns/" + name);
      issuedFor(credential.get("config"));
      StsFixture.Received last = sts.requests().get(sts.requests().size() - 1);
      assertThat(objectResources(JSON.readTree(last.get("Policy"))))
          .containsExactly("arn:aws:s3:::lake/sts/ns/" + name + "/*");
      assertThat(objectActions(JSON.readTree(last.get("Policy")))).contains("s3:PutObject");
    }
  }

  @Test
  void anIdempotentCreateRecordsNoCredentialsAndItsReplayGetsSome() throws Exception {
    String[] headers = {DELEGATION, "vended-credentials", "Idempotency-Key", "vend-create-1"};
    HttpResponse<String> first = iceberg("POST", "sts", "/namespaces/ns/tables",
        createBody("idem", false), writer, headers);
    HttpResponse<String> replay = iceberg("POST", "sts", "/namespaces/ns/tables",
        createBody("idem", false), writer, headers);
    assertThat(first.statusCode()).isEqualTo(200);
    assertThat(replay.statusCode()).isEqualTo(200);
    assertThat(replay.headers().firstValue("Idempotency-Replayed")).contains("true");
    issuedFor(single(JSON.readTree(first.body()).get("storage-credentials")).get("config"));
    issuedFor(single(JSON.readTree(replay.body()).get("storage-credentials")).get("config"));
    assertNoIssuedSecretIn(allStoreValues(), "the store");
  }

  @Test
  void theCredentialsRouteAnswersFreshSessions() throws Exception {
    HttpResponse<String> route = iceberg("GET", "sts", "/namespaces/ns/tables/fresh/credentials",
        null, reader);
    assertThat(route.statusCode()).isEqualTo(200);
    assertThat(route.headers().firstValue("Cache-Control")).contains("no-store");
    JsonNode credential = single(JSON.readTree(route.body()).get("storage-credentials"));
    assertThat(credential.get("prefix").asText()).isEqualTo("s3://lake/sts/ns/fresh");
    StsFixture.Issued issued = issuedFor(credential.get("config"));
    assertThat(issued.expiration())
        .isAfter(Instant.now().plus(AssumeRoleVending.REUSE_MARGIN));

    // Sessions that would expire within the reuse margin are never handed out twice.
    sts.lifetime(AssumeRoleVending.REUSE_MARGIN.minus(Duration.ofMinutes(1)));
    try {
      HttpResponse<String> a = iceberg("GET", "sts", "/namespaces/ns/tables/short/credentials",
          null, reader);
      HttpResponse<String> b = iceberg("GET", "sts", "/namespaces/ns/tables/short/credentials",
          null, reader);
      StsFixture.Issued first = issuedFor(
          single(JSON.readTree(a.body()).get("storage-credentials")).get("config"));
      StsFixture.Issued second = issuedFor(
          single(JSON.readTree(b.body()).get("storage-credentials")).get("config"));
      assertThat(second).isNotEqualTo(first);
    } finally {
      sts.lifetime(null);
    }
  }

  @Test
  void anStsRefusalIsA503WithoutCredentials() throws Exception {
    sts.refuse("AccessDenied");
    try {
      HttpResponse<String> load = iceberg("GET", "sts", "/namespaces/ns/tables/refused", null,
          reader, DELEGATION, "vended-credentials");
      assertThat(load.statusCode()).isEqualTo(503);
      assertThat(load.body()).contains("AccessDenied").contains(ROLE)
          .doesNotContain("s3.access-key-id");
      HttpResponse<String> route = iceberg("GET", "sts",
          "/namespaces/ns/tables/refused/credentials", null, reader);
      assertThat(route.statusCode()).isEqualTo(503);
    } finally {
      sts.refuse(null);
    }
    // A refusal is not remembered: the next ask goes to STS again.
    HttpResponse<String> later = iceberg("GET", "sts", "/namespaces/ns/tables/refused/credentials",
        null, reader);
    assertThat(later.statusCode()).isEqualTo(200);
  }

  @Test
  void aStaticKeysCatalogVendsItsKeysAndAClientWritesWithThemAlone() throws Exception {
    HttpResponse<String> load = iceberg("GET", "static", "/namespaces/ns/tables/t", null, reader,
        DELEGATION, "vended-credentials");
    JsonNode body = JSON.readTree(load.body());
    JsonNode config = single(body.get("storage-credentials")).get("config");
    assertThat(config.get("s3.access-key-id").asText()).isEqualTo(objects.accessKeyId());
    assertThat(config.get("s3.secret-access-key").asText()).isEqualTo(objects.secretAccessKey());
    assertThat(config.has("s3.session-token")).isFalse();
    assertThat(body.get("config") == null
        || !body.get("config").has("client.refresh-credentials-endpoint")).isTrue();
    HttpResponse<String> route = iceberg("GET", "static", "/namespaces/ns/tables/t/credentials",
        null, reader);
    assertThat(single(JSON.readTree(route.body()).get("storage-credentials")).get("config")
        .get("s3.access-key-id").asText()).isEqualTo(objects.accessKeyId());

    // A RESTCatalog client with no S3 settings of its own writes a data file with what it was
    // vended, then commits it.
    try (RESTCatalog client = client("static", writer)) {
      Table table = client.loadTable(TableIdentifier.of(Namespace.of("ns"), "t"));
      List<StorageCredential> vended = ((SupportsStorageCredentials) table.io()).credentials();
      assertThat(vended).singleElement()
          .satisfies(c -> assertThat(c.prefix()).isEqualTo("s3://lake/static/ns/t"));
      OutputFile file = table.io().newOutputFile(table.location() + "/data/one.parquet");
      try (PositionOutputStream out = file.create()) {
        out.write("not really parquet".getBytes(StandardCharsets.UTF_8));
      }
      DataFile data = DataFiles.builder(PartitionSpec.unpartitioned())
          .withPath(file.location()).withFileSizeInBytes(18).withRecordCount(1)
          .withFormat("parquet").build();
      table.newAppend().appendFile(data).commit();
    }
    try (software.amazon.awssdk.services.s3.S3Client s3 = objects.newClient()) {
      assertThat(s3.headObject(h -> h.bucket("lake").key("static/ns/t/data/one.parquet"))
          .contentLength()).isEqualTo(18);
    }
  }

  /**
   * The directory shares one adapter per Catalog for a few seconds, and a storage key rotation
   * deletes the previous credential generation's secret once published: the first delegated load
   * and the first credentials-route call after a rotation must still vend (found by the tryout:
   * the first load after a rotation came back without credentials, the route would answer 403).
   */
  @Test
  void theFirstRequestsAfterAKeyRotationVendTheNewGeneration() throws Exception {
    catalog("rotated", ",\"vendStaticKeys\":true");
    assertThat(iceberg("POST", "rotated", "/namespaces", "{\"namespace\":[\"ns\"]}", writer)
        .statusCode()).isEqualTo(200);
    assertThat(iceberg("POST", "rotated", "/namespaces/ns/tables", createBody("t", false), writer)
        .statusCode()).isEqualTo(200);
    assertThat(vendedKeyIds(iceberg("GET", "rotated", "/namespaces/ns/tables/t", null, reader,
        DELEGATION, "vended-credentials"))).containsExactly(objects.accessKeyId());

    rotateStorageKeys("rotated");
    HttpResponse<String> load = iceberg("GET", "rotated", "/namespaces/ns/tables/t", null, reader,
        DELEGATION, "vended-credentials");
    assertThat(vendedKeyIds(load)).as(load.body()).containsExactly(objects.accessKeyId());
    assertThat(load.headers().firstValue("Cache-Control")).hasValue("no-store");

    rotateStorageKeys("rotated");
    HttpResponse<String> route = iceberg("GET", "rotated", "/namespaces/ns/tables/t/credentials",
        null, reader);
    assertThat(route.statusCode()).as(route.body()).isEqualTo(200);
    assertThat(vendedKeyIds(route)).containsExactly(objects.accessKeyId());
  }

  /** PATCHes the same keys again: a new credential generation, the previous secret deleted. */
  private static void rotateStorageKeys(String name) throws Exception {
    String path = base + "/catalogs/" + prefixes.get(name);
    String etag = gw.send("GET", path, null).headers().firstValue("ETag").orElseThrow();
    HttpResponse<String> patched = gw.send("PATCH", path, "{\"storage\":{\"s3\":{\"endpoint\":\""
        + objects.endpoint() + "\",\"region\":\"us-east-1\",\"pathStyleAccess\":true,"
        + "\"accessKeyId\":\"" + objects.accessKeyId() + "\",\"secretAccessKey\":\""
        + objects.secretAccessKey() + "\",\"vendStaticKeys\":true}}}", "If-Match", etag);
    assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
  }

  private static List<String> vendedKeyIds(HttpResponse<String> response) throws Exception {
    List<String> ids = new ArrayList<>();
    JsonNode credentials = JSON.readTree(response.body()).get("storage-credentials");
    if (credentials != null) {
      credentials.forEach(c -> ids.add(c.get("config").get("s3.access-key-id").asText()));
    }
    return ids;
  }

  @Test
  void aCatalogWithoutVendingHandsOutNothing() throws Exception {
    int before = sts.requests().size();
    HttpResponse<String> load = iceberg("GET", "none", "/namespaces/ns/tables/t", null, writer,
        DELEGATION, "vended-credentials");
    assertThat(load.statusCode()).isEqualTo(200);
    JsonNode body = JSON.readTree(load.body());
    JsonNode credentials = body.get("storage-credentials");
    assertThat(credentials == null || credentials.isEmpty()).isTrue();
    assertThat(load.body()).doesNotContain("s3.access-key-id")
        .doesNotContain(objects.secretAccessKey());
    assertThat(load.headers().firstValue("ETag")).isPresent();
    HttpResponse<String> route = iceberg("GET", "none", "/namespaces/ns/tables/t/credentials",
        null, writer);
    assertThat(route.statusCode()).isEqualTo(403);
    assertThat(JSON.readTree(route.body()).get("error").get("message").asText())
        .contains("does not vend storage credentials");
    assertThat(sts.requests()).hasSize(before);
    try (RESTCatalog client = client("none", writer)) {
      Table table = client.loadTable(TableIdentifier.of(Namespace.of("ns"), "t"));
      assertThat(((SupportsStorageCredentials) table.io()).credentials()).isEmpty();
    }
  }

  @Test
  void theConfigRouteAdvertisesTheCredentialsEndpoint() throws Exception {
    HttpResponse<String> config = gw.send("GET", "/iceberg/v1/config?warehouse=sts", null,
        "Authorization", reader);
    assertThat(JSON.readTree(config.body()).get("endpoints").toString())
        .contains("GET /v1/{prefix}/namespaces/{namespace}/tables/{table}/credentials");
  }

  @Test
  void adminResponsesShowTheSettingsAndNoSecret() throws Exception {
    HttpResponse<String> got = gw.send("GET", base + "/catalogs/" + prefixes.get("sts"), null);
    JsonNode s3 = JSON.readTree(got.body()).get("storage").get("s3");
    assertThat(s3.get("vending").asText()).isEqualTo("assume-role");
    assertThat(s3.get("roleArn").asText()).isEqualTo(ROLE);
    assertThat(s3.get("stsEndpoint").asText()).isEqualTo(sts.endpoint().toString());
    assertThat(s3.get("durationSeconds").asInt()).isEqualTo(1800);
    assertThat(s3.get("externalId").asText()).isEqualTo("icegate-test-external");
    HttpResponse<String> list = gw.send("GET", base + "/catalogs", null);
    for (HttpResponse<String> r : List.of(got, list)) {
      assertThat(r.body()).doesNotContain(objects.secretAccessKey());
    }
    iceberg("GET", "sts", "/namespaces/ns/tables/admin", null, reader, DELEGATION,
        "vended-credentials");
    assertNoIssuedSecretIn(List.of(got.body(), list.body(),
        gw.send("GET", base + "/catalogs", null).body()), "admin responses");
  }

  /** Last, so that every other test's log lines are searched too. */
  @Test
  @Order(Integer.MAX_VALUE)
  void noVendedSecretInAnyLogLine() throws Exception {
    iceberg("GET", "sts", "/namespaces/ns/tables/logged", null, reader, DELEGATION,
        "vended-credentials");
    iceberg("GET", "sts", "/namespaces/ns/tables/logged/credentials", null, writer);
    assertThat(sts.issued()).isNotEmpty();
    List<String> lines = new ArrayList<>();
    for (ILoggingEvent event : logs.list) {
      lines.add(event.getFormattedMessage());
      for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
        lines.add(t.getClassName() + ": " + t.getMessage());
      }
    }
    assertThat(lines).isNotEmpty();
    assertNoIssuedSecretIn(lines, "log lines");
    for (String line : lines) {
      assertThat(line).doesNotContain(objects.secretAccessKey());
    }
  }
}
