package io.icegate.gateway.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.core.auth.ApiTokens;
import io.icegate.core.testing.CountingStore;
import io.icegate.gateway.auth.CachingAuthenticator;
import io.icegate.gateway.testing.FederatedCatalog;
import io.icegate.storage.sqlite.SqliteKvStore;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 25 item 4, "One managed-table read": how many store transactions a load-table runs,
 * counted on the gateway's request threads ({@link CountingStore}) for managed and native tables,
 * plain and with vended credentials. A load reads the Catalog, the name index, the table record,
 * its visibility and capture pointer (and on a cache miss its metadata) in one read transaction;
 * a vended load uses that same read for the credentials. What else a request reads (the
 * Integration a managed table vends through, the Catalog's stored secret) is counted too, so the
 * figures are whole requests, except the bearer token's lookup: the gateway caches a token's
 * answer for {@link CachingAuthenticator#REVOCATION_BOUND} (2 s), so whether a request reads it
 * depended on how long the requests before it took, and on a loaded machine a count came out one
 * higher. The lookup ({@link ApiTokens#resolve} and its last-used write) is recognized on the
 * calling thread's stack and left out, which makes the counts independent of timing.
 */
class LoadTransactionsTest {
  private static final String DELEGATION = "X-Iceberg-Access-Delegation";
  private static CountingStore store;
  private static FederatedCatalog fed;
  private static String managed;
  private static String nativeFile;
  private static String nativeS3;

  @BeforeAll
  static void start() throws Exception {
    Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
    Path dir = Files.createTempDirectory("icegate-count");
    store = new CountingStore(SqliteKvStore.open(dir.resolve("icegate.db")),
        thread -> thread.getName().startsWith("icegate-http") && !resolvingAToken());
    fed = FederatedCatalog.start(store);
    fed.appendUpstream(FederatedCatalog.ORDERS);
    fed.reconcile();
    fed.validate(FederatedCatalog.ORDERS);
    fed.upstream().vending().plan(location -> fed.storeSession(3_600_000L));
    managed = fed.loadPath(FederatedCatalog.ORDERS);

    String prefix = fed.gateway().prefix();
    created(fed.gateway().send("POST", "/iceberg/v1/" + prefix + "/namespaces",
        "{\"namespace\":[\"local\"]}"));
    created(fed.gateway().send("POST", "/iceberg/v1/" + prefix + "/namespaces/local/tables",
        createBody("t")));
    nativeFile = "/iceberg/v1/" + prefix + "/namespaces/local/tables/t";

    fed.objects().createBucket("lake");
    HttpResponse<String> catalog = fed.gateway().send("POST", fed.adminBase() + "/catalogs",
        "{\"name\":\"s3\",\"warehouse\":\"s3://lake/s3\",\"storage\":{\"s3\":{\"endpoint\":\""
            + fed.objects().endpoint() + "\",\"region\":\"us-east-1\",\"pathStyleAccess\":true,"
            + "\"accessKeyId\":\"" + fed.objects().accessKeyId() + "\",\"secretAccessKey\":\""
            + fed.objects().secretAccessKey() + "\",\"vendStaticKeys\":true}}}");
    created(catalog);
    String s3 = FederatedCatalog.json(catalog).get("id").asText();
    created(fed.gateway().send("POST", "/iceberg/v1/" + s3 + "/namespaces",
        "{\"namespace\":[\"ns\"]}"));
    created(fed.gateway().send("POST", "/iceberg/v1/" + s3 + "/namespaces/ns/tables",
        createBody("t")));
    nativeS3 = "/iceberg/v1/" + s3 + "/namespaces/ns/tables/t";
  }

  /** Whether the calling thread is inside {@link ApiTokens#resolve} (a token cache miss). */
  private static boolean resolvingAToken() {
    return StackWalker.getInstance().walk(frames -> frames.anyMatch(frame ->
        frame.getClassName().equals(ApiTokens.class.getName())
            && frame.getMethodName().equals("resolve")));
  }

  @AfterAll
  static void stop() throws Exception {
    if (fed != null) {
      fed.close();
    }
  }

  private static void created(HttpResponse<String> response) {
    assertThat(response.statusCode()).as(response.body()).isBetween(200, 201);
  }

  private static String createBody(String name) {
    return "{\"name\":\"" + name + "\",\"schema\":{\"type\":\"struct\",\"schema-id\":0,"
        + "\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":false,\"type\":\"long\"}]}}";
  }

  /** The read transactions {@code request} ran (it must answer 200 and write nothing). */
  private static int reads(String what, Supplier<HttpResponse<String>> request) {
    store.reset();
    HttpResponse<String> response = request.get();
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(store.writes()).as(what + ": writes").isZero();
    System.out.printf("LoadTransactionsTest: %-32s %d read transactions%n", what, store.reads());
    return store.reads();
  }

  private static HttpResponse<String> load(String path) {
    return fed.gateway().send("GET", path + "?snapshots=refs", null);
  }

  private static HttpResponse<String> vended(String path) {
    return fed.gateway().send("GET", path, null, DELEGATION, "vended-credentials");
  }

  @Test
  void aPlainLoadRunsOneReadTransactionHitOrMiss() {
    // snapshots=refs: an answer no other test of this class caches first
    assertThat(reads("managed, plain, miss", () -> load(managed))).isEqualTo(1);
    assertThat(reads("managed, plain, hit", () -> load(managed))).isEqualTo(1);
    assertThat(reads("native, plain, miss", () -> load(nativeFile))).isEqualTo(1);
    assertThat(reads("native, plain, hit", () -> load(nativeFile))).isEqualTo(1);
  }

  @Test
  void aVendedLoadOfAManagedTableRunsOneReadTransactionForTheTable() {
    vended(managed); // the upstream's credentials cached
    // the table's read, and the Integration's record (ManagedTableCredentials keys its cache on
    // the Integration's configuration generation)
    assertThat(reads("managed, vended", () -> vended(managed))).isEqualTo(2);
    assertThat(reads("managed, credentials route", () -> vended(managed + "/credentials")))
        .isEqualTo(2);
  }

  @Test
  void aVendedLoadOfANativeTableRunsOneReadTransactionForTheTable() {
    // nothing to vend for a file: warehouse: the plain answer, from the same read
    assertThat(reads("native file:, vended", () -> vended(nativeFile))).isEqualTo(1);
    // static keys: the table's read, and the Catalog's stored secret
    int s3 = reads("native s3, vended", () -> vended(nativeS3));
    assertThat(s3).isEqualTo(2);
  }
}
