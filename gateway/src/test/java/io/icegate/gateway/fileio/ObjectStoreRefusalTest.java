package io.icegate.gateway.fileio;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.gateway.testing.AmbientAwsKeys;
import io.icegate.gateway.testing.GatewayFixture;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * An object store that refuses a metadata write (wrong keys, a missing bucket, nobody listening)
 * is a failed dependency, not a server bug: the Iceberg route answers 503 with an {@code
 * ErrorResponse} of type {@code ServiceUnavailableException} whose message names the operation,
 * the location and the store's error code, never a credential; the server logs one WARN line
 * without a stack trace; and the store holds nothing of the failed create or commit. Real parts:
 * s3proxy on loopback, the gateway over its SQLite store, raw HTTP.
 */
class ObjectStoreRefusalTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SCHEMA = "{\"type\":\"struct\",\"schema-id\":0,\"fields\":"
      + "[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}";
  private static final String WRONG_SECRET = "wrong-secret-0123456789";
  private static AmbientAwsKeys ambient;
  private static ObjectStoreFixture objects;
  private static GatewayFixture gw;
  private static String catalogs;
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

  @BeforeAll
  static void start() throws Exception {
    ObjectStoreFixture.useChecksumsOnlyWhenRequired();
    objects = ObjectStoreFixture.startS3Proxy();
    objects.createBucket("lake");
    // never the default chain's instance-metadata lookups, and never a working identity
    ambient = AmbientAwsKeys.wrong();
    gw = GatewayFixture.start();
    catalogs = "/admin/v1/accounts/" + gw.defaultAccountId() + "/catalogs";
  }

  @AfterAll
  static void stop() throws Exception {
    gw.close();
    objects.close();
    ambient.close();
  }

  @BeforeEach
  void captureLogs() {
    logs.start();
    ((Logger) LoggerFactory.getLogger("io.icegate")).addAppender(logs);
  }

  @AfterEach
  void releaseLogs() {
    ((Logger) LoggerFactory.getLogger("io.icegate")).detachAppender(logs);
  }

  /** Creates a Catalog and namespace ns in it; its prefix. */
  private static String catalog(String name, String warehouse, String endpoint, String keyId,
      String secret) throws Exception {
    HttpResponse<String> created = gw.send("POST", catalogs, "{\"name\":\"" + name
        + "\",\"warehouse\":\"" + warehouse + "\",\"storage\":{\"s3\":{\"endpoint\":\""
        + endpoint + "\",\"region\":\"us-east-1\",\"pathStyleAccess\":true,\"accessKeyId\":\""
        + keyId + "\",\"secretAccessKey\":\"" + secret + "\"}}}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String prefix = JSON.readTree(created.body()).get("id").asText();
    HttpResponse<String> ns = gw.send("POST", "/iceberg/v1/" + prefix + "/namespaces",
        "{\"namespace\":[\"ns\"]}");
    assertThat(ns.statusCode()).as(ns.body()).isEqualTo(200);
    return prefix;
  }

  private static HttpResponse<String> createTable(String prefix) {
    return gw.send("POST", "/iceberg/v1/" + prefix + "/namespaces/ns/tables",
        "{\"name\":\"t\",\"schema\":" + SCHEMA + "}");
  }

  /** The 503 ErrorResponse, its message checked for what it must and must not say. */
  private String refused(HttpResponse<String> response, String operation, String location,
      String code) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
    JsonNode error = JSON.readTree(response.body()).get("error");
    assertThat(error.get("code").asInt()).isEqualTo(503);
    assertThat(error.get("type").asText()).isEqualTo("ServiceUnavailableException");
    String message = error.get("message").asText();
    assertThat(message).contains(operation).contains(location).contains(code)
        .doesNotContain(WRONG_SECRET).doesNotContain(objects.secretAccessKey())
        .doesNotContain("wrong-key-id").doesNotContain(objects.accessKeyId())
        .doesNotContainIgnoringCase("signature=");
    List<ILoggingEvent> problems = logs.list.stream()
        .filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN)).toList();
    assertThat(problems).as("one WARN line without a stack, no ERROR").hasSize(1);
    assertThat(problems.get(0).getLevel()).isEqualTo(Level.WARN);
    assertThat(problems.get(0).getThrowableProxy()).isNull();
    assertThat(problems.get(0).getFormattedMessage()).contains(code)
        .doesNotContain(WRONG_SECRET).doesNotContain(objects.secretAccessKey());
    logs.list.clear();
    return message;
  }

  private static void assertNoTable(String prefix) {
    HttpResponse<String> load =
        gw.send("GET", "/iceberg/v1/" + prefix + "/namespaces/ns/tables/t", null);
    assertThat(load.statusCode()).as(load.body()).isEqualTo(404);
  }

  private static int objectsUnder(String bucket, String prefix) {
    try (S3Client client = objects.newClient()) {
      return client.listObjectsV2(r -> r.bucket(bucket).prefix(prefix)).contents().size();
    }
  }

  @Test
  void wrongKeysAreA503NamingTheStoresCodeForTablesAndViews() throws Exception {
    String prefix = catalog("denied", "s3://lake/denied", objects.endpoint().toString(),
        "wrong-key-id", WRONG_SECRET);
    refused(createTable(prefix), "create table ns.t", "s3://lake/denied/ns/t",
        "InvalidAccessKeyId (HTTP 403)");
    assertNoTable(prefix);
    HttpResponse<String> view = gw.send("POST", "/iceberg/v1/" + prefix + "/namespaces/ns/views",
        "{\"name\":\"v\",\"schema\":" + SCHEMA + ",\"view-version\":{\"version-id\":1,"
            + "\"timestamp-ms\":0,\"schema-id\":0,\"summary\":{},\"default-namespace\":[\"ns\"],"
            + "\"representations\":[{\"type\":\"sql\",\"sql\":\"select 1\",\"dialect\":\"spark\"}]},"
            + "\"properties\":{}}");
    refused(view, "create view ns.v", "s3://lake/denied/ns/v", "InvalidAccessKeyId (HTTP 403)");
    assertThat(gw.send("GET", "/iceberg/v1/" + prefix + "/namespaces/ns/views/v", null)
        .statusCode()).isEqualTo(404);
    assertThat(objectsUnder("lake", "denied/")).isZero();
  }

  @Test
  void aMissingBucketIsA503NamingTheStoresCode() throws Exception {
    String prefix = catalog("nobucket", "s3://missing/wh", objects.endpoint().toString(),
        objects.accessKeyId(), objects.secretAccessKey());
    refused(createTable(prefix), "create table ns.t", "s3://missing/wh/ns/t", "NoSuchBucket");
    assertNoTable(prefix);
  }

  /**
   * The tryout's case: an S3 client that sends the SDK's default checksum trailers, which s3proxy
   * does not accept. The setting is JVM-wide and read when a client is built, so it is changed
   * only around this Catalog's first write.
   */
  @Test
  void aStoreRefusingTheChecksumIsA503NamingItsCode() throws Exception {
    String prefix = catalog("checksums", "s3://lake/checksums", objects.endpoint().toString(),
        objects.accessKeyId(), objects.secretAccessKey());
    System.clearProperty("aws.requestChecksumCalculation");
    HttpResponse<String> response;
    try {
      response = createTable(prefix);
    } finally {
      ObjectStoreFixture.useChecksumsOnlyWhenRequired();
    }
    String message = refused(response, "create table ns.t", "s3://lake/checksums/ns/t", "HTTP 4");
    assertThat(message).doesNotContain("no error code");
    assertNoTable(prefix);
    assertThat(objectsUnder("lake", "checksums/")).isZero();
  }

  @Test
  void anUnreachableStoreIsA503() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    String prefix = catalog("unreachable", "s3://lake/unreachable", "http://127.0.0.1:" + port,
        objects.accessKeyId(), objects.secretAccessKey());
    refused(createTable(prefix), "create table ns.t", "s3://lake/unreachable/ns/t",
        "unreachable");
    assertNoTable(prefix);
  }

  /**
   * A commit must first read the table's current metadata; when no cache holds it (here: a
   * multi-table commit wrote it) and the store cannot be reached, that read is a 503 too (found by
   * a tryout: a 500 with an ERROR stack).
   */
  @Test
  void aMetadataReadTheStoreCannotServeIsA503() throws Exception {
    String prefix = catalog("reads", "s3://lake/reads", objects.endpoint().toString(),
        objects.accessKeyId(), objects.secretAccessKey());
    assertThat(createTable(prefix).statusCode()).isEqualTo(200);
    HttpResponse<String> transaction = gw.send("POST", "/iceberg/v1/" + prefix
        + "/transactions/commit", "{\"table-changes\":[{\"identifier\":{\"namespace\":[\"ns\"],"
        + "\"name\":\"t\"},\"requirements\":[],\"updates\":[{\"action\":\"set-properties\","
        + "\"updates\":{\"tx\":\"1\"}}]}]}");
    assertThat(transaction.statusCode()).as(transaction.body()).isEqualTo(204);
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    String etag = gw.send("GET", catalogs + "/" + prefix, null).headers().firstValue("ETag")
        .orElseThrow();
    assertThat(gw.send("PATCH", catalogs + "/" + prefix, "{\"storage\":{\"s3\":{"
        + "\"endpoint\":\"http://127.0.0.1:" + port + "\",\"region\":\"us-east-1\","
        + "\"pathStyleAccess\":true}}}", "If-Match", etag).statusCode()).isEqualTo(200);
    logs.list.clear();

    refused(gw.send("POST", "/iceberg/v1/" + prefix + "/namespaces/ns/tables/t",
            "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\","
            + "\"updates\":{\"k\":\"v\"}}]}"),
        "read table metadata", "s3://lake/reads/ns/t/metadata/", "unreachable");
  }

  /**
   * A commit whose metadata write is refused fails before the compare-and-set: 503 (which
   * iceberg-core's client reports as commit state unknown), and the table keeps its metadata.
   */
  @Test
  void aRefusedCommitIsA503AndLeavesTheTableAsItWas() throws Exception {
    String prefix = catalog("commits", "s3://lake/commits", objects.endpoint().toString(),
        objects.accessKeyId(), objects.secretAccessKey());
    HttpResponse<String> created = createTable(prefix);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
    String location = JSON.readTree(created.body()).get("metadata-location").asText();
    int files = objectsUnder("lake", "commits/");
    // the table's metadata is read once with the right keys, then the keys go wrong
    String path = "/iceberg/v1/" + prefix + "/namespaces/ns/tables/t";
    assertThat(gw.send("GET", path, null).statusCode()).isEqualTo(200);
    String id = prefix;
    String etag = gw.send("GET", catalogs + "/" + id, null).headers().firstValue("ETag")
        .orElseThrow();
    HttpResponse<String> rekeyed = gw.send("PATCH", catalogs + "/" + id, "{\"storage\":{\"s3\":{"
        + "\"endpoint\":\"" + objects.endpoint() + "\",\"region\":\"us-east-1\","
        + "\"pathStyleAccess\":true,\"accessKeyId\":\"wrong-key-id\",\"secretAccessKey\":\""
        + WRONG_SECRET + "\"}}}", "If-Match", etag);
    assertThat(rekeyed.statusCode()).as(rekeyed.body()).isEqualTo(200);
    logs.list.clear();

    // The very next request writes: it must use the new keys, although the adapter built with the
    // old ones is still cached (found by the tryout: the first write used the old settings).

    HttpResponse<String> commit = gw.send("POST", path, "{\"requirements\":[],\"updates\":"
        + "[{\"action\":\"set-properties\",\"updates\":{\"k\":\"v\"}}]}");
    refused(commit, "commit to table ns.t", "s3://lake/commits/ns/t",
        "InvalidAccessKeyId (HTTP 403)");
    assertThat(objectsUnder("lake", "commits/")).isEqualTo(files);
    // the pointer did not move (read with the right keys again)
    etag = gw.send("GET", catalogs + "/" + id, null).headers().firstValue("ETag").orElseThrow();
    assertThat(gw.send("PATCH", catalogs + "/" + id, "{\"storage\":{\"s3\":{\"endpoint\":\""
        + objects.endpoint() + "\",\"region\":\"us-east-1\",\"pathStyleAccess\":true,"
        + "\"accessKeyId\":\"" + objects.accessKeyId() + "\",\"secretAccessKey\":\""
        + objects.secretAccessKey() + "\"}}}", "If-Match", etag).statusCode()).isEqualTo(200);
    JsonNode loaded = JSON.readTree(gw.send("GET", path, null).body());
    assertThat(loaded.get("metadata-location").asText()).isEqualTo(location);
    assertThat(loaded.at("/metadata/properties").has("k")).isFalse();
  }
}
