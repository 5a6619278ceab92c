package io.icegate.gateway.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.core.auth.ApiTokens;
import io.icegate.core.auth.TokenGrant;
import io.icegate.core.auth.TokenRole;
import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.Resource;
import io.icegate.core.repo.Repositories;
import io.icegate.gateway.testing.GatewayFixture;
import io.icegate.overlay.store.OverlayStore;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.Map;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Load-table ETags, {@code Idempotency-Key} (raw HTTP: the 1.10.1 client does not send it), token
 * roles and account isolation.
 */
class LoadTableAndIdempotencyTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  private static GatewayFixture gateway;
  private static RESTCatalog catalog;
  private static String prefix;

  @BeforeAll
  static void start() {
    gateway = GatewayFixture.start();
    catalog = gateway.client();
    prefix = gateway.prefix();
  }

  @AfterAll
  static void stop() throws Exception {
    catalog.close();
    gateway.close();
  }

  @Test
  void loadTableEtagDependsOnModeAndAnswers304() {
    catalog.createNamespace(Namespace.of("etag"));
    Table table = catalog.createTable(TableIdentifier.of("etag", "t"), SCHEMA);
    for (int i = 0; i < 2; i++) {
      table.newFastAppend().appendFile(DataFiles.builder(PartitionSpec.unpartitioned())
          .withPath(table.location() + "/data/f" + i + ".parquet")
          .withFileSizeInBytes(10).withRecordCount(1).build()).commit();
    }
    String path = "/iceberg/v1/" + prefix + "/namespaces/etag/tables/t";
    HttpResponse<String> all = gateway.send("GET", path, null);
    HttpResponse<String> refs = gateway.send("GET", path + "?snapshots=refs", null);
    String allTag = all.headers().firstValue("ETag").orElseThrow();
    String refsTag = refs.headers().firstValue("ETag").orElseThrow();
    assertThat(allTag).isNotEqualTo(refsTag);
    assertThat(all.body()).contains("\"snapshots\"");

    assertThat(gateway.send("GET", path, null, "If-None-Match", allTag).statusCode())
        .isEqualTo(304);
    assertThat(gateway.send("GET", path + "?snapshots=refs", null, "If-None-Match", refsTag)
        .statusCode()).isEqualTo(304);
    assertThat(gateway.send("GET", path + "?snapshots=refs", null, "If-None-Match", allTag)
        .statusCode()).isEqualTo(200);
    // RFC 9110 5.3: two If-None-Match lines are one list, whichever line holds the current tag
    assertThat(gateway.send("GET", path + "?snapshots=refs", null, "If-None-Match", allTag,
        "If-None-Match", refsTag).statusCode()).isEqualTo(304);

    table.updateProperties().set("k", "v").commit();
    HttpResponse<String> changed = gateway.send("GET", path, null, "If-None-Match", allTag);
    assertThat(changed.statusCode()).isEqualTo(200);
    assertThat(changed.headers().firstValue("ETag").orElseThrow()).isNotEqualTo(allTag);
  }

  @Test
  void gzipAnswerIsTheSameBodyCompressedWithItsOwnTag() throws Exception {
    catalog.createNamespace(Namespace.of("gz"));
    Table table = catalog.createTable(TableIdentifier.of("gz", "t"), SCHEMA);
    for (int i = 0; i < 20; i++) {
      table.newFastAppend().appendFile(DataFiles.builder(PartitionSpec.unpartitioned())
          .withPath(table.location() + "/data/f" + i + ".parquet")
          .withFileSizeInBytes(10).withRecordCount(1).build()).commit();
    }
    String path = "/iceberg/v1/" + prefix + "/namespaces/gz/tables/t";
    HttpResponse<byte[]> plain = getBytes(path);
    HttpResponse<byte[]> gzip = getBytes(path, "Accept-Encoding", "gzip, x-gzip, deflate");
    String plainTag = plain.headers().firstValue("ETag").orElseThrow();
    String gzipTag = gzip.headers().firstValue("ETag").orElseThrow();

    assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();
    assertThat(gzip.headers().firstValue("Content-Encoding")).contains("gzip");
    assertThat(plain.headers().firstValue("Vary")).contains("Accept-Encoding");
    assertThat(gzip.headers().firstValue("Vary")).contains("Accept-Encoding");
    assertThat(gunzip(gzip.body())).isEqualTo(plain.body());
    assertThat(gzip.body().length).isLessThan(plain.body().length / 3);
    assertThat(gzipTag).isEqualTo(plainTag.substring(0, plainTag.length() - 1) + "--gzip\"");

    // Either tag revalidates; the 304 names the representation this request would get.
    HttpResponse<byte[]> revalidated =
        getBytes(path, "If-None-Match", gzipTag, "Accept-Encoding", "gzip");
    assertThat(revalidated.statusCode()).isEqualTo(304);
    assertThat(revalidated.headers().firstValue("ETag")).contains(gzipTag);
    HttpResponse<byte[]> crossed = getBytes(path, "If-None-Match", "W/" + gzipTag);
    assertThat(crossed.statusCode()).isEqualTo(304);
    assertThat(crossed.headers().firstValue("ETag")).contains(plainTag);

    // Codings refused or not offered get identity.
    for (String refused : new String[] {"gzip;q=0", "identity", "br", "*;q=0", "x-gzip;q=0, *"}) {
      HttpResponse<byte[]> answer = getBytes(path, "Accept-Encoding", refused);
      assertThat(answer.headers().firstValue("Content-Encoding")).as(refused).isEmpty();
      assertThat(answer.body()).as(refused).isEqualTo(plain.body());
    }
    assertThat(getBytes(path, "Accept-Encoding", "*").headers().firstValue("Content-Encoding"))
        .contains("gzip");
    // Repeated header lines are one list (RFC 9110 5.3).
    assertThat(getBytes(path, "Accept-Encoding", "br", "Accept-Encoding", "gzip").headers()
        .firstValue("Content-Encoding")).contains("gzip");

    // iceberg-core's client sends Accept-Encoding: gzip and decodes the answer itself.
    assertThat(catalog.loadTable(TableIdentifier.of("gz", "t")).currentSnapshot().snapshotId())
        .isEqualTo(table.currentSnapshot().snapshotId());
  }

  private static HttpResponse<byte[]> getBytes(String path, String... headers) throws Exception {
    java.net.http.HttpRequest.Builder request = java.net.http.HttpRequest
        .newBuilder(java.net.URI.create(gateway.baseUri() + path))
        .header("Authorization", "Bearer " + GatewayFixture.TOKEN);
    for (int i = 0; i + 1 < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return java.net.http.HttpClient.newHttpClient()
        .send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private static byte[] gunzip(byte[] body) throws java.io.IOException {
    try (java.util.zip.GZIPInputStream in =
        new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(body))) {
      return in.readAllBytes();
    }
  }

  @Test
  void idempotencyKeyReplaysFinalAnswers() {
    String path = "/iceberg/v1/" + prefix + "/namespaces";
    String body = "{\"namespace\":[\"idem\"],\"properties\":{\"a\":\"1\"}}";
    HttpResponse<String> first = gateway.send("POST", path, body, "Idempotency-Key", "key-1");
    assertThat(first.statusCode()).isEqualTo(200);
    long writes = gateway.gateway().store().stats().committedWrites();
    HttpResponse<String> again = gateway.send("POST", path, body, "Idempotency-Key", "key-1");
    assertThat(again.statusCode()).isEqualTo(200);
    assertThat(again.body()).isEqualTo(first.body());
    assertThat(again.headers().firstValue("Idempotency-Replayed")).contains("true");
    assertThat(gateway.gateway().store().stats().committedWrites()).isEqualTo(writes);

    // Same key, different request: 422.
    assertThat(gateway.send("POST", path, body.replace("\"1\"", "\"2\""),
        "Idempotency-Key", "key-1").statusCode()).isEqualTo(422);

    // A final 4xx is recorded and replayed too, even after the conflict is gone.
    HttpResponse<String> conflict = gateway.send("POST", path, body, "Idempotency-Key", "key-2");
    assertThat(conflict.statusCode()).isEqualTo(409);
    catalog.dropNamespace(Namespace.of("idem"));
    HttpResponse<String> replayed = gateway.send("POST", path, body, "Idempotency-Key", "key-2");
    assertThat(replayed.statusCode()).isEqualTo(409);
    assertThat(replayed.body()).isEqualTo(conflict.body());
    assertThat(catalog.namespaceExists(Namespace.of("idem"))).isFalse();
  }

  @Test
  void readersCannotWriteAndOtherAccountsCatalogsAre404() throws Exception {
    Repositories repos = OverlayStore.repositories(gateway.gateway().store(), Clock.systemUTC());
    ApiTokens tokens = new ApiTokens(gateway.gateway().store());
    String reader = ApiTokens.newToken();
    String other = ApiTokens.newToken();
    Resource<Account> defaultAccount = repos.accounts()
        .getByName(io.icegate.core.model.NameScope.ACCOUNT_WIDE, "default").orElseThrow();
    gateway.gateway().store().run(tx -> {
      tokens.put(tx, reader, new TokenGrant(defaultAccount.id(), TokenRole.READER, false, "r"));
      Resource<Account> acme = repos.accounts().create(tx, new Account("acme"));
      repos.catalogs(acme.id()).create(tx, new Catalog("default", "file:/tmp/acme", Map.of()));
      tokens.put(tx, other, new TokenGrant(acme.id(), TokenRole.ADMIN, false, "acme"));
      return null;
    });

    String list = "/iceberg/v1/" + prefix + "/namespaces";
    assertThat(gateway.send("GET", list, null, "Authorization", "Bearer " + reader).statusCode())
        .isEqualTo(200);
    assertThat(gateway.send("POST", list, "{\"namespace\":[\"r\"]}",
        "Authorization", "Bearer " + reader).statusCode()).isEqualTo(403);
    assertThat(gateway.send("GET", list, null, "Authorization", "Bearer " + other).statusCode())
        .isEqualTo(404);
    HttpResponse<String> otherConfig = gateway.send("GET",
        "/iceberg/v1/config?warehouse=default", null, "Authorization", "Bearer " + other);
    assertThat(otherConfig.statusCode()).isEqualTo(200);
    assertThat(otherConfig.body()).doesNotContain(prefix);
  }

  @Test
  void metricsReportsAreAcceptedWith204() {
    catalog.createNamespace(Namespace.of("metrics"));
    catalog.createTable(TableIdentifier.of("metrics", "t"), SCHEMA);
    String body = "{\"report-type\":\"commit-report\",\"table-name\":\"metrics.t\","
        + "\"snapshot-id\":1,\"sequence-number\":1,\"operation\":\"append\","
        + "\"metrics\":{}}";
    assertThat(gateway.send("POST",
        "/iceberg/v1/" + prefix + "/namespaces/metrics/tables/t/metrics", body).statusCode())
        .isEqualTo(204);
  }
}
