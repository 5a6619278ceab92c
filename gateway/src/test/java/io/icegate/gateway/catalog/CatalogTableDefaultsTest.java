package io.icegate.gateway.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.gateway.testing.GatewayFixture;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Catalog's {@code table-default.*} and {@code table-override.*} properties apply to tables the
 * server creates, not only to clients that read them from {@code /config}: a default where the
 * create request does not set the property, an override always (Iceberg's catalog table builder).
 * Other Catalog properties stay away from iceberg-core's catalog code ({@code
 * metrics-reporter-impl} would make the server load a class an account admin names).
 */
class CatalogTableDefaultsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SCHEMA = "{\"type\":\"struct\",\"schema-id\":0,\"fields\":"
      + "[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}";
  private static GatewayFixture gateway;
  private static String prefix;

  private static String account;

  @BeforeAll
  static void start() throws Exception {
    gateway = GatewayFixture.start();
    account = gateway.defaultAccountId();
    prefix = catalog("defaults",
        "{\"table-default.write.format.default\":\"orc\",\"table-override.x\":\"y\"}");
  }

  /** Creates a Catalog with {@code properties} (JSON) and a namespace ns in it; its prefix. */
  private static String catalog(String name, String properties) throws Exception {
    String warehouse = Files.createTempDirectory(gateway.dataDir(), name).toUri().toString();
    HttpResponse<String> created = gateway.send("POST",
        "/admin/v1/accounts/" + account + "/catalogs", "{\"name\":\"" + name
            + "\",\"warehouse\":\"" + warehouse + "\",\"properties\":" + properties + "}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String id = JSON.readTree(created.body()).get("id").asText();
    gateway.send("POST", "/iceberg/v1/" + id + "/namespaces", "{\"namespace\":[\"ns\"]}");
    return id;
  }

  @AfterAll
  static void stop() {
    gateway.close();
  }

  private static JsonNode createOverHttp(String name, String properties) throws Exception {
    return createOverHttp(prefix, name, properties);
  }

  private static JsonNode createOverHttp(String prefix, String name, String properties)
      throws Exception {
    HttpResponse<String> response = gateway.send("POST",
        "/iceberg/v1/" + prefix + "/namespaces/ns/tables",
        "{\"name\":\"" + name + "\",\"schema\":" + SCHEMA
            + (properties == null ? "" : ",\"properties\":" + properties) + "}");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body()).at("/metadata/properties");
  }

  @Test
  void defaultsApplyWhenTheRequestDoesNotSetThemAndOverridesAlways() throws Exception {
    JsonNode plain = createOverHttp("plain", null);
    assertThat(plain.path("write.format.default").asText()).isEqualTo("orc");
    assertThat(plain.path("x").asText()).isEqualTo("y");
    assertThat(plain.has("table-default.write.format.default")).isFalse();

    JsonNode own = createOverHttp("own", "{\"write.format.default\":\"avro\",\"x\":\"mine\"}");
    assertThat(own.path("write.format.default").asText()).isEqualTo("avro");
    assertThat(own.path("x").asText()).isEqualTo("y");

    // what was stored, not only what the create answered
    JsonNode loaded = JSON.readTree(gateway.send("GET",
        "/iceberg/v1/" + prefix + "/namespaces/ns/tables/own", null).body());
    assertThat(loaded.at("/metadata/properties/write.format.default").asText()).isEqualTo("avro");
    assertThat(loaded.at("/metadata/properties/x").asText()).isEqualTo("y");
  }

  /** A staged create gets them too (tryout: it had neither), and the commit that creates keeps them. */
  @Test
  void aStagedCreateGetsThemAndTheClientsCommitKeepsThem() throws Exception {
    HttpResponse<String> staged = gateway.send("POST",
        "/iceberg/v1/" + prefix + "/namespaces/ns/tables", "{\"name\":\"staged\",\"schema\":"
            + SCHEMA + ",\"stage-create\":true,\"properties\":{\"x\":\"mine\"}}");
    assertThat(staged.statusCode()).as(staged.body()).isEqualTo(200);
    JsonNode properties = JSON.readTree(staged.body()).at("/metadata/properties");
    assertThat(properties.path("write.format.default").asText()).isEqualTo("orc");
    assertThat(properties.path("x").asText()).isEqualTo("y");

    Map<String, String> props = new HashMap<>();
    props.put(CatalogProperties.URI, gateway.icebergUri());
    props.put(CatalogProperties.WAREHOUSE_LOCATION, "defaults");
    props.put("token", GatewayFixture.TOKEN);
    try (RESTCatalog catalog = new RESTCatalog()) {
      catalog.initialize("defaults", props);
      catalog.buildTable(TableIdentifier.of(Namespace.of("ns"), "staged_client"),
              new Schema(Types.NestedField.required(1, "id", Types.LongType.get())))
          .createTransaction().commitTransaction();
      assertThat(catalog.loadTable(TableIdentifier.of(Namespace.of("ns"), "staged_client"))
          .properties()).containsEntry("write.format.default", "orc").containsEntry("x", "y");
    }
  }

  /** A create right after the Catalog's properties change uses the new ones (tryout: 5 s late). */
  @Test
  void aCreateRightAfterAPropertiesChangeUsesTheNewOnes() throws Exception {
    String changing = catalog("changing", "{\"table-override.x\":\"before\"}");
    assertThat(createOverHttp(changing, "first", null).path("x").asText()).isEqualTo("before");
    String path = "/admin/v1/accounts/" + account + "/catalogs/" + changing;
    String etag = gateway.send("GET", path, null).headers().firstValue("ETag").orElseThrow();
    HttpResponse<String> patched = gateway.send("PATCH", path,
        "{\"properties\":{\"table-override.x\":\"after\"}}", "If-Match", etag);
    assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
    assertThat(createOverHttp(changing, "second", null).path("x").asText()).isEqualTo("after");
  }

  /** iceberg-core would load a class named by metrics-reporter-impl if it saw that property. */
  @Test
  void otherCatalogPropertiesDoNotReachIcebergsCatalogCode() throws Exception {
    String other = catalog("reporter", "{\"table-default.a\":\"b\","
        + "\"metrics-reporter-impl\":\"io.icegate.NoSuchReporter\"}");
    assertThat(createOverHttp(other, "t", null).path("a").asText()).isEqualTo("b");
    HttpResponse<String> loaded =
        gateway.send("GET", "/iceberg/v1/" + other + "/namespaces/ns/tables/t", null);
    assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
  }

  @Test
  void theSameThroughIcebergsRestCatalog() throws Exception {
    Map<String, String> props = new HashMap<>();
    props.put(CatalogProperties.URI, gateway.icebergUri());
    props.put(CatalogProperties.WAREHOUSE_LOCATION, "defaults");
    props.put("token", GatewayFixture.TOKEN);
    Schema schema = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
    try (RESTCatalog catalog = new RESTCatalog()) {
      catalog.initialize("defaults", props);
      Map<String, String> plain = catalog.createTable(
          TableIdentifier.of(Namespace.of("ns"), "client_plain"), schema).properties();
      assertThat(plain).containsEntry("write.format.default", "orc").containsEntry("x", "y");
      Map<String, String> own = catalog.buildTable(
              TableIdentifier.of(Namespace.of("ns"), "client_own"), schema)
          .withProperty("write.format.default", "avro").withProperty("x", "mine").create()
          .properties();
      assertThat(own).containsEntry("write.format.default", "avro").containsEntry("x", "y");
    }
  }
}
