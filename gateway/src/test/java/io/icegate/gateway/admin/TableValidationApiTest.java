package io.icegate.gateway.admin;

import static io.icegate.gateway.testing.HttpJson.created;
import static io.icegate.gateway.testing.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.core.model.Table;
import io.icegate.core.repo.Repositories;
import io.icegate.gateway.testing.GatewayFixture;
import io.icegate.overlay.store.OverlayStore;
import io.icegate.overlay.store.testing.ContributionInvariants;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericAppenderFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Validation and visibility through the admin API of a running gateway, over HTTP, against the
 * real upstream Iceberg REST fixture vending the object store's keys as a session, with real
 * Parquet files on an S3 object store (s3proxy): a table whose files are fine is VALID and
 * visible after reconcile; a table whose data file went missing has one error record at the
 * validation-errors route, state FAILED and is invisible; the override makes it visible (If-Match
 * rules), its removal hides it again; once the file is back, revalidate retires the errors.
 */
class TableValidationApiTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "name", Types.StringType.get()));

  private static ObjectStoreFixture objects;
  private static IcebergRestFixture upstream;
  private static GatewayFixture gw;
  private static String base;
  private static String integration;

  @BeforeAll
  static void start() throws Exception {
    objects = ObjectStoreFixture.startS3Proxy();
    upstream = IcebergRestFixture.start(objects);
    upstream.vending().plan(location -> upstream.storeKeysAsSession());
    gw = GatewayFixture.start();
    String account = json(gw.send("POST", "/admin/v1/accounts", "{\"name\":\"val\"}")).get("id")
        .asText();
    base = "/admin/v1/accounts/" + account;
    Map<String, String> s3 = objects.s3Settings();
    integration = created(gw.send("POST", base + "/integrations", "{\"displayName\":\"up\","
        + "\"type\":\"ICEBERG_REST\",\"uri\":\"" + upstream.uri() + "\",\"properties\":"
        + JSON.writeValueAsString(s3) + ",\"authentication\":{\"type\":\"bearer\","
        + "\"token\":\"tok\"}}")).get("id").asText();
  }

  @AfterAll
  static void stop() throws Exception {
    ContributionInvariants.checker(gw.gateway().store()).assertClean();
    gw.close();
    upstream.close();
    objects.close();
  }

  @Test
  void aMissingFileFailsTheTableUntilItIsBackAndRevalidated() throws Exception {
    upstream.backingCatalog().createNamespace(Namespace.of("v"));
    upstream.backingCatalog().createTable(TableIdentifier.of("v", "good"), SCHEMA);
    upstream.backingCatalog().createTable(TableIdentifier.of("v", "broken"), SCHEMA);
    append("good", 3);
    DataFile lost = append("broken", 2);
    byte[] lostBytes = removeObject(lost.location());

    String catalog = created(gw.send("POST", base + "/catalogs",
        "{\"name\":\"val\",\"warehouse\":\"file:/tmp/val\"}")).get("id").asText();
    String overlay = created(gw.send("POST", base + "/overlays", "{\"displayName\":\"val\","
        + "\"integrationId\":\"" + integration + "\",\"catalogId\":\"" + catalog
        + "\",\"includeNamespaces\":[[\"v\"]]}")).get("id").asText();
    JsonNode report = json(gw.send("POST", base + "/overlays/" + overlay + "/reconcile", null));
    assertThat(report.get("validated").asInt()).as(report.toString()).isEqualTo(1);
    assertThat(report.get("validationFailed").asInt()).isEqualTo(1);

    String tables = base + "/catalogs/" + catalog + "/tables/";
    String goodId = tableId(catalog, "good");
    String brokenId = tableId(catalog, "broken");
    // the namespace's tables, hidden ones included, paged (issue 24: an admin finds them here)
    String listing = base + "/catalogs/" + catalog + "/tables?namespace=v&pageSize=1";
    JsonNode first = json(gw.send("GET", listing, null));
    assertThat(first.get("items")).as(first.toString()).hasSize(1);
    assertThat(first.get("items").get(0).get("id").asText()).isEqualTo(brokenId);
    assertThat(first.get("items").get(0).get("visible").asBoolean()).isFalse();
    assertThat(first.get("items").get(0).get("validation").get("state").asText())
        .isEqualTo("FAILED");
    JsonNode second = json(gw.send("GET", listing + "&pageToken=" + java.net.URLEncoder.encode(
        first.get("nextPageToken").asText(), java.nio.charset.StandardCharsets.UTF_8), null));
    assertThat(second.get("items")).as(second.toString()).hasSize(1);
    assertThat(second.get("items").get(0).get("id").asText()).isEqualTo(goodId);
    assertThat(second.get("items").get(0).get("visible").asBoolean()).isTrue();

    JsonNode good = json(gw.send("GET", tables + goodId, null));
    assertThat(good.get("validation").get("state").asText()).isEqualTo("VALID");
    assertThat(good.get("visible").asBoolean()).isTrue();
    assertThat(good.get("capture").get("captureGeneration").asInt()).isEqualTo(1);
    assertThat(good.get("capture").get("capturedAt").asText())
        .isEqualTo(good.get("properties").get("icegate.captured-at").asText());
    assertThat(good.get("managed").asBoolean()).isTrue();

    HttpResponse<String> r = gw.send("GET", tables + brokenId, null);
    JsonNode broken = json(r);
    String etag = r.headers().firstValue("ETag").orElseThrow();
    assertThat(broken.get("validation").get("state").asText()).isEqualTo("FAILED");
    assertThat(broken.get("validation").get("errorCount").asInt()).isEqualTo(1);
    assertThat(broken.get("visible").asBoolean()).isFalse();
    assertThat(broken.get("visibilityReason").asText()).isEqualTo("1 validation error; see GET "
        + tables + brokenId + "/validation-errors");
    JsonNode errors = json(gw.send("GET", tables + brokenId + "/validation-errors?pageSize=10",
        null));
    assertThat(errors.get("items")).hasSize(1);
    JsonNode error = errors.get("items").get(0);
    assertThat(error.get("filePath").asText()).isEqualTo(lost.location());
    assertThat(error.get("displayPath").asText()).isEqualTo("v.broken");
    assertThat(error.get("tableFormat").asText()).isEqualTo("ICEBERG");
    assertThat(error.get("tableId").asText()).isEqualTo(brokenId);
    assertThat(error.get("message").asText()).contains("does not exist");
    assertThat(errors.get("nextPageToken").isNull()).isTrue();
    // no admin answer carries the vended keys
    assertThat(errors.toString() + broken + report).doesNotContain(objects.secretAccessKey())
        .doesNotContain("session-");

    // the override: If-Match required and checked, then visible; removing it hides it again
    assertThat(gw.send("PUT", tables + brokenId + "/visibility-override", "{}").statusCode())
        .isEqualTo(428);
    assertThat(gw.send("PUT", tables + brokenId + "/visibility-override", "{}", "If-Match",
        "\"" + brokenId + "/999\"").statusCode()).isEqualTo(412);
    HttpResponse<String> set = gw.send("PUT", tables + brokenId + "/visibility-override",
        "{\"note\":\"known gap\"}", "If-Match", etag);
    assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
    assertThat(json(set).get("visible").asBoolean()).isTrue();
    assertThat(json(set).get("visibilityOverride").get("note").asText()).isEqualTo("known gap");
    // a second writer holding the same ETag loses (found by the new-user tryout: both won)
    assertThat(set.headers().firstValue("ETag").orElseThrow()).isNotEqualTo(etag);
    assertThat(gw.send("PUT", tables + brokenId + "/visibility-override",
        "{\"note\":\"second writer\"}", "If-Match", etag).statusCode()).isEqualTo(412);
    assertThat(gw.send("DELETE", tables + brokenId + "/visibility-override", null, "If-Match",
        etag).statusCode()).isEqualTo(412);
    assertThat(gw.send("DELETE", tables + brokenId + "/visibility-override", null).statusCode())
        .isEqualTo(204);
    assertThat(json(gw.send("GET", tables + brokenId, null)).get("visible").asBoolean())
        .isFalse();

    // the file is back upstream: revalidate retires the error record
    putObject(lost.location(), lostBytes);
    HttpResponse<String> revalidated = gw.send("POST", tables + brokenId + "/revalidate", null);
    assertThat(revalidated.statusCode()).as(revalidated.body()).isEqualTo(200);
    assertThat(json(revalidated).get("validation").get("state").asText()).isEqualTo("VALID");
    assertThat(json(revalidated).get("visible").asBoolean()).isTrue();
    assertThat(json(gw.send("GET", tables + brokenId + "/validation-errors", null)).get("items"))
        .isEmpty();

    // Integration validate with revalidate=true validates both tables again
    JsonNode validate = json(gw.send("POST", base + "/integrations/" + integration
        + "/validate?revalidate=true", null));
    assertThat(validate.get("revalidation").get("validated").asInt()).as(validate.toString())
        .isEqualTo(2);
    assertThat(validate.get("revalidation").get("failed").asInt()).isZero();
  }

  @Test
  void unknownForeignAndLocalTablesAnswerProblems() throws Exception {
    String catalog = created(gw.send("POST", base + "/catalogs",
        "{\"name\":\"other\",\"warehouse\":\"file:/tmp/other\"}")).get("id").asText();
    String account = base.substring(base.lastIndexOf('/') + 1);
    Repositories repos = OverlayStore.repositories(gw.gateway().store(), Clock.systemUTC());
    repos.namespaces(account).create(new io.icegate.core.model.Namespace(catalog,
        List.of("loc"), Map.of()));
    String local = repos.tables(account).create(new Table(catalog, List.of("loc"), "t",
        "file:/tmp/other/t/metadata.json", Map.of())).id();
    String tables = base + "/catalogs/" + catalog + "/tables/";

    JsonNode view = json(gw.send("GET", tables + local, null));
    assertThat(view.get("managed").asBoolean()).isFalse();
    assertThat(view.get("visible").asBoolean()).isTrue();
    assertThat(view.get("validation").isNull()).isTrue();

    // finding a table by its path (found by the new-user tryout: ids were nowhere to be seen)
    JsonNode found = json(gw.send("GET", base + "/catalogs/" + catalog
        + "/tables?namespace=loc&name=t", null));
    assertThat(found.get("items").get(0).get("id").asText()).isEqualTo(local);
    assertThat(json(gw.send("GET", base + "/catalogs/" + catalog
        + "/tables?namespace=loc&name=absent", null)).get("items")).isEmpty();
    assertThat(json(gw.send("GET", base + "/catalogs/" + catalog
        + "/tables?namespace=loc%1Fdeeper&name=t", null)).get("items")).isEmpty();
    // without name: the namespace's tables (issue 24; it was 400 "not supported yet")
    JsonNode all = json(gw.send("GET", base + "/catalogs/" + catalog + "/tables?namespace=loc",
        null));
    assertThat(all.get("items")).hasSize(1);
    assertThat(all.get("items").get(0).get("id").asText()).isEqualTo(local);
    assertProblem(gw.send("GET", base + "/catalogs/nope/tables?namespace=loc", null), 404,
        "NOT_FOUND");
    assertProblem(gw.send("GET", base + "/catalogs/" + catalog + "/tables?name=t", null),
        400, "INVALID_ARGUMENT");
    assertProblem(gw.send("GET", base + "/catalogs/" + catalog
        + "/tables?namespace=loc%1F&name=t", null), 400, "INVALID_ARGUMENT");
    assertProblem(gw.send("GET", base + "/catalogs/nope/tables?namespace=loc&name=t", null),
        404, "NOT_FOUND");
    assertProblem(gw.send("GET", tables + "nope", null), 404, "NOT_FOUND");
    assertProblem(gw.send("GET", base + "/catalogs/nope/tables/" + local, null), 404,
        "NOT_FOUND");
    assertProblem(gw.send("GET", tables + "nope/validation-errors", null), 404, "NOT_FOUND");
    assertProblem(gw.send("POST", tables + local + "/revalidate", null), 400,
        "INVALID_ARGUMENT");
    assertProblem(gw.send("PUT", tables + local + "/visibility-override", null, "If-Match", "*"),
        400, "INVALID_ARGUMENT");
    assertProblem(gw.send("GET", tables + local + "/validation-errors?pageSize=0", null), 400,
        "INVALID_ARGUMENT");
    assertProblem(gw.send("GET", tables + local + "/validation-errors?pageToken=bogus", null),
        400, "INVALID_PAGE_TOKEN");
    assertProblem(gw.send("POST", base + "/integrations/" + integration
        + "/validate?revalidate=maybe", null), 400, "INVALID_ARGUMENT");
  }

  private static void assertProblem(HttpResponse<String> r, int status, String code) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    assertThat(r.headers().firstValue("Content-Type").orElse(""))
        .startsWith("application/problem+json");
    assertThat(json(r).get("code").asText()).isEqualTo(code);
  }

  /** The id of table {@code v.name}, found over the admin API as a user finds it. */
  private static String tableId(String catalog, String name) {
    HttpResponse<String> found = gw.send("GET", base + "/catalogs/" + catalog
        + "/tables?namespace=v&name=" + name, null);
    assertThat(found.statusCode()).as(found.body()).isEqualTo(200);
    JsonNode items = json(found).get("items");
    assertThat(items).as(found.body()).hasSize(1);
    assertThat(items.get(0).get("name").asText()).isEqualTo(name);
    return items.get(0).get("id").asText();
  }

  /** One upstream commit appending a real Parquet file of {@code rows} rows to {@code v.name}. */
  private static DataFile append(String name, int rows) {
    try (RESTCatalog client = upstream.newClient()) {
      org.apache.iceberg.Table table = client.loadTable(TableIdentifier.of("v", name));
      String path = table.location() + "/data/" + UUID.randomUUID() + ".parquet";
      FileAppender<Record> appender = new GenericAppenderFactory(SCHEMA)
          .newAppender(table.io().newOutputFile(path), FileFormat.PARQUET);
      try (appender) {
        for (int i = 0; i < rows; i++) {
          Record row = GenericRecord.create(SCHEMA);
          row.setField("id", (long) i);
          row.setField("name", "row-" + i);
          appender.add(row);
        }
      }
      DataFile file = DataFiles.builder(PartitionSpec.unpartitioned()).withPath(path)
          .withFormat(FileFormat.PARQUET).withFileSizeInBytes(appender.length())
          .withMetrics(appender.metrics()).build();
      table.newAppend().appendFile(file).commit();
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Deletes the object at {@code location}; returns its bytes. */
  private static byte[] removeObject(String location) {
    URI uri = URI.create(location);
    try (S3Client s3 = objects.newClient()) {
      byte[] bytes = s3.getObjectAsBytes(b -> b.bucket(uri.getHost())
          .key(uri.getPath().substring(1))).asByteArray();
      s3.deleteObject(b -> b.bucket(uri.getHost()).key(uri.getPath().substring(1)));
      return bytes;
    }
  }

  private static void putObject(String location, byte[] bytes) {
    URI uri = URI.create(location);
    try (S3Client s3 = objects.newClient()) {
      s3.putObject(b -> b.bucket(uri.getHost()).key(uri.getPath().substring(1)),
          RequestBody.fromBytes(bytes));
    }
  }
}
