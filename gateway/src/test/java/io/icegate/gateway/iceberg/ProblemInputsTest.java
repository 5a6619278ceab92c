package io.icegate.gateway.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.gateway.testing.GatewayFixture;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Inputs that broke other REST catalogs (issue 4, "Must show"), each against a real gateway over
 * HTTP: namespace identity with dots, spaces and plus signs, paging edges, concurrent commits,
 * view drops and non-purging table drops.
 */
class ProblemInputsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "data", Types.StringType.get()));

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

  private static JsonNode json(HttpResponse<String> response) throws Exception {
    return JSON.readTree(response.body());
  }

  @Test
  void dottedSingleLevelNamespaceIsNotTheTwoLevelOne() {
    Namespace dotted = Namespace.of("new.db");
    Namespace twoLevel = Namespace.of("new", "db");
    catalog.createNamespace(dotted, new HashMap<>(java.util.Map.of("which", "dotted")));
    catalog.createNamespace(Namespace.of("new"));
    catalog.createNamespace(twoLevel, new HashMap<>(java.util.Map.of("which", "two-level")));

    assertThat(catalog.loadNamespaceMetadata(dotted)).containsEntry("which", "dotted");
    assertThat(catalog.loadNamespaceMetadata(twoLevel)).containsEntry("which", "two-level");
    assertThat(catalog.listNamespaces(Namespace.of("new"))).containsExactly(twoLevel);
    assertThat(catalog.listNamespaces()).contains(dotted, Namespace.of("new"));

    catalog.createTable(TableIdentifier.of(dotted, "t"), SCHEMA);
    assertThat(catalog.listTables(twoLevel)).isEmpty();
    assertThat(catalog.listTables(dotted)).containsExactly(TableIdentifier.of(dotted, "t"));
  }

  @Test
  void publicDefaultIsNotPublicDotDefault() {
    Namespace nested = Namespace.of("public", "default");
    Namespace dotted = Namespace.of("public.default");
    catalog.createNamespace(Namespace.of("public"));
    catalog.createNamespace(nested);
    assertThat(catalog.namespaceExists(dotted)).isFalse();
    catalog.createNamespace(dotted);
    catalog.createTable(TableIdentifier.of(nested, "x"), SCHEMA);
    assertThat(catalog.tableExists(TableIdentifier.of(dotted, "x"))).isFalse();
    assertThat(catalog.tableExists(TableIdentifier.of(nested, "x"))).isTrue();
  }

  @Test
  void spacesAndPlusSignsRoundTrip() throws Exception {
    Namespace space = Namespace.of("a b");
    Namespace plus = Namespace.of("a+b");
    catalog.createNamespace(space);
    catalog.createNamespace(plus);
    assertThat(catalog.namespaceExists(space)).isTrue();
    assertThat(catalog.namespaceExists(plus)).isTrue();
    assertThat(catalog.listNamespaces()).contains(space, plus);

    // Raw: a plus sign sent as %2B names "a+b"; a space sent as %20 names "a b".
    assertThat(gateway.send("HEAD", "/iceberg/v1/" + prefix + "/namespaces/a%2Bb", null)
        .statusCode()).isEqualTo(204);
    assertThat(gateway.send("HEAD", "/iceberg/v1/" + prefix + "/namespaces/a%20b", null)
        .statusCode()).isEqualTo(204);
    JsonNode loaded = json(gateway.send("GET", "/iceberg/v1/" + prefix + "/namespaces/a%2Bb",
        null));
    assertThat(loaded.get("namespace").get(0).asText()).isEqualTo("a+b");
  }

  @Test
  void pagingEdges() throws Exception {
    Namespace parent = Namespace.of("paging");
    catalog.createNamespace(parent);
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      names.add("n" + i);
      catalog.createNamespace(Namespace.of("paging", "n" + i));
    }
    String base = "/iceberg/v1/" + prefix + "/namespaces?parent=paging";

    JsonNode all = json(gateway.send("GET", base + "&pageSize=100", null));
    assertThat(all.get("namespaces")).hasSize(10);
    assertThat(all.path("next-page-token").isMissingNode() || all.get("next-page-token").isNull())
        .isTrue();

    List<String> walked = new ArrayList<>();
    JsonNode page = json(gateway.send("GET", base + "&pageSize=1", null));
    int pages = 0;
    while (true) {
      pages++;
      assertThat(page.get("namespaces")).hasSize(1);
      walked.add(page.get("namespaces").get(0).get(1).asText());
      JsonNode next = page.get("next-page-token");
      if (next == null || next.isNull()) {
        break;
      }
      String token = java.net.URLEncoder.encode(next.asText(), java.nio.charset.StandardCharsets.UTF_8);
      page = json(gateway.send("GET", base + "&pageSize=1&pageToken=" + token, null));
      assertThat(pages).isLessThan(11);
    }
    assertThat(walked).containsExactlyElementsOf(names);
  }

  @Test
  void concurrentTableCommitsGiveOneWinnerAndConflictsNeverServerErrors() throws Exception {
    catalog.createNamespace(Namespace.of("race"));
    Table table = catalog.createTable(TableIdentifier.of("race", "t"), SCHEMA,
        PartitionSpec.unpartitioned());
    int lastColumn = table.schema().highestFieldId();
    String path = "/iceberg/v1/" + prefix + "/namespaces/race/tables/t";
    List<Callable<Integer>> commits = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      String body = "{\"requirements\":[{\"type\":\"assert-last-assigned-field-id\","
          + "\"last-assigned-field-id\":" + lastColumn + "}],"
          + "\"updates\":[{\"action\":\"add-schema\",\"schema\":{\"type\":\"struct\","
          + "\"schema-id\":1,\"fields\":["
          + "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"},"
          + "{\"id\":2,\"name\":\"data\",\"required\":false,\"type\":\"string\"},"
          + "{\"id\":3,\"name\":\"c" + i + "\",\"required\":false,\"type\":\"string\"}]},"
          + "\"last-column-id\":3},{\"action\":\"set-current-schema\",\"schema-id\":-1}]}";
      commits.add(() -> gateway.send("POST", path, body).statusCode());
    }
    List<Integer> statuses = runAll(commits);
    assertThat(statuses).containsOnly(200, 409);
    assertThat(statuses).filteredOn(s -> s == 200).hasSize(1);
    assertThat(catalog.loadTable(TableIdentifier.of("race", "t")).schema().columns()).hasSize(3);
  }

  @Test
  void concurrentNamespacePropertyUpdatesNeverServerErrors() throws Exception {
    catalog.createNamespace(Namespace.of("props"));
    String path = "/iceberg/v1/" + prefix + "/namespaces/props/properties";
    List<Callable<Integer>> updates = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      String body = "{\"removals\":[],\"updates\":{\"k" + i + "\":\"v\"}}";
      updates.add(() -> gateway.send("POST", path, body).statusCode());
    }
    List<Integer> statuses = runAll(updates);
    // Serializable store transactions retry the read-modify-write, so all usually succeed; a
    // conflict may surface as 409, never as a 5xx.
    assertThat(statuses).allMatch(s -> s == 200 || s == 409);
    long applied = statuses.stream().filter(s -> s == 200).count();
    assertThat(applied).isPositive();
    assertThat(catalog.loadNamespaceMetadata(Namespace.of("props"))).hasSize((int) applied);
  }

  @Test
  void dropViewWithoutPurgeIs204() {
    catalog.createNamespace(Namespace.of("views"));
    catalog.buildView(TableIdentifier.of("views", "v"))
        .withSchema(SCHEMA)
        .withDefaultNamespace(Namespace.of("views"))
        .withQuery("spark", "select 1")
        .create();
    HttpResponse<String> response =
        gateway.send("DELETE", "/iceberg/v1/" + prefix + "/namespaces/views/views/v", null);
    assertThat(response.statusCode()).isEqualTo(204);
    assertThat(catalog.viewExists(TableIdentifier.of("views", "v"))).isFalse();
  }

  @Test
  void dropWithoutPurgeRequestedPurgesNothing() throws Exception {
    catalog.createNamespace(Namespace.of("keep"));
    Table table = catalog.createTable(TableIdentifier.of("keep", "t"), SCHEMA);
    String metadata = ((org.apache.iceberg.HasTableOperations) table).operations().current()
        .metadataFileLocation();
    Path file = Path.of(metadata.replaceFirst("^file:", ""));
    assertThat(file).exists();
    HttpResponse<String> response =
        gateway.send("DELETE", "/iceberg/v1/" + prefix + "/namespaces/keep/tables/t", null);
    assertThat(response.statusCode()).isEqualTo(204);
    assertThat(catalog.tableExists(TableIdentifier.of("keep", "t"))).isFalse();
    assertThat(file).exists();
    assertThat(Files.size(file)).isPositive();

    Table purged = catalog.createTable(TableIdentifier.of("keep", "p"), SCHEMA);
    Path purgedFile = Path.of(((org.apache.iceberg.HasTableOperations) purged).operations()
        .current().metadataFileLocation().replaceFirst("^file:", ""));
    assertThat(gateway.send("DELETE",
        "/iceberg/v1/" + prefix + "/namespaces/keep/tables/p?purgeRequested=true", null)
        .statusCode()).isEqualTo(204);
    assertThat(purgedFile).doesNotExist();
  }

  private static List<Integer> runAll(List<Callable<Integer>> calls) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(calls.size());
    try {
      List<Integer> statuses = new ArrayList<>();
      for (Future<Integer> f : pool.invokeAll(calls)) {
        statuses.add(f.get());
      }
      return statuses;
    } finally {
      pool.shutdownNow();
    }
  }

  // ---- locations stay inside the Catalog's warehouse ----------------------------------------

  private static Path warehouse() {
    return gateway.dataDir().resolve("warehouse");
  }

  private static String inWarehouse(String location) {
    return location.substring(("file:" + warehouse()).length());
  }

  @Test
  void dotDotNamespaceAndTableNamesStayOneSegmentInsideTheWarehouse() {
    Namespace up = Namespace.of("..", "x");
    catalog.createNamespace(Namespace.of(".."));
    catalog.createNamespace(up);
    Table t1 = catalog.createTable(TableIdentifier.of(up, "t1"), SCHEMA);
    assertThat(t1.location()).startsWith("file:" + warehouse() + "/");
    assertThat(inWarehouse(t1.location())).isEqualTo("/%2E%2E/x/t1");
    assertThat(gateway.dataDir().resolve("x")).doesNotExist();

    catalog.createNamespace(Namespace.of("dots"));
    Table dotDot = catalog.createTable(TableIdentifier.of(Namespace.of("dots"), ".."), SCHEMA);
    Table dot = catalog.createTable(TableIdentifier.of(Namespace.of("dots"), "."), SCHEMA);
    assertThat(inWarehouse(dotDot.location())).isEqualTo("/dots/%2E%2E");
    assertThat(inWarehouse(dot.location())).isEqualTo("/dots/%2E");
  }

  @Test
  void slashInANameIsNotANamespaceBoundary() {
    catalog.createNamespace(Namespace.of("a/b"));
    catalog.createNamespace(Namespace.of("a"));
    catalog.createNamespace(Namespace.of("a", "b"));
    Table slashed = catalog.createTable(TableIdentifier.of(Namespace.of("a/b"), "t1"), SCHEMA);
    Table nested = catalog.createTable(TableIdentifier.of(Namespace.of("a", "b"), "t1"), SCHEMA);
    Table percent = catalog.createTable(TableIdentifier.of(Namespace.of("a", "b"), "t%2F1"),
        SCHEMA);
    assertThat(inWarehouse(slashed.location())).isEqualTo("/a%2Fb/t1");
    assertThat(inWarehouse(nested.location())).isEqualTo("/a/b/t1");
    assertThat(inWarehouse(percent.location())).isEqualTo("/a/b/t%252F1");
  }

  @Test
  void explicitLocationsOutsideTheWarehouseAreRefused() throws Exception {
    Namespace ns = Namespace.of("placed");
    catalog.createNamespace(ns);
    String root = "file:" + warehouse();
    Path outside = gateway.dataDir().resolve("outside");
    String[] refused = {
      "file:" + outside, root + "/../outside", root + "-evil/t", root, "file:///etc/t",
      "s3://bucket/t", root + "/placed/../../outside",
    };
    for (String location : refused) {
      assertThatThrownBy(() -> catalog.buildTable(TableIdentifier.of(ns, "t"), SCHEMA)
          .withLocation(location).create())
          .as(location)
          .isInstanceOf(BadRequestException.class)
          .hasMessageContaining("inside the catalog's warehouse");
      assertThatThrownBy(() -> catalog.buildView(TableIdentifier.of(ns, "v"))
          .withSchema(SCHEMA).withDefaultNamespace(ns).withQuery("spark", "select 1")
          .withLocation(location).create())
          .as(location)
          .isInstanceOf(BadRequestException.class)
          .hasMessageContaining("inside the catalog's warehouse");
    }
    assertThat(outside).doesNotExist();
    assertThat(catalog.listTables(ns)).isEmpty();
    assertThat(catalog.listViews(ns)).isEmpty();

    // Inside, in any spelling of the same directory, is accepted.
    Table placed = catalog.buildTable(TableIdentifier.of(ns, "t"), SCHEMA)
        .withLocation("file://" + warehouse() + "/./custom/t").create();
    assertThat(placed.location()).isEqualTo("file://" + warehouse() + "/./custom/t");

    // A table may not be moved out later either.
    assertThatThrownBy(() -> placed.updateLocation().setLocation("file:" + outside).commit())
        .isInstanceOf(BadRequestException.class);
  }

  @Test
  void dataPathPropertiesOutsideTheWarehouseAreRefused() {
    Namespace ns = Namespace.of("datapaths");
    catalog.createNamespace(ns);
    String outside = "file:" + gateway.dataDir().resolve("outside-data");
    String inside = "file:" + warehouse() + "/datapaths/elsewhere";
    for (String property : new String[] {
        "write.data.path", "write.object-storage.path", "write.folder-storage.path"}) {
      assertThatThrownBy(() -> catalog.buildTable(TableIdentifier.of(ns, "t"), SCHEMA)
          .withProperty(property, outside).create())
          .as(property)
          .isInstanceOf(BadRequestException.class)
          .hasMessageContaining(property)
          .hasMessageContaining("inside the catalog's warehouse");
      assertThat(catalog.tableExists(TableIdentifier.of(ns, "t"))).isFalse();

      Table table = catalog.buildTable(TableIdentifier.of(ns, "t"), SCHEMA)
          .withProperty(property, inside).create();
      assertThatThrownBy(() -> table.updateProperties().set(property, outside).commit())
          .as(property)
          .isInstanceOf(BadRequestException.class)
          .hasMessageContaining(property);
      assertThat(catalog.loadTable(TableIdentifier.of(ns, "t")).properties())
          .containsEntry(property, inside);
      catalog.dropTable(TableIdentifier.of(ns, "t"), false);
    }
  }

  @Test
  void registerRefusesMetadataOutsideTheWarehouse() throws Exception {
    Namespace ns = Namespace.of("registered");
    catalog.createNamespace(ns);
    Table source = catalog.createTable(TableIdentifier.of(ns, "src"), SCHEMA);
    String metadata = ((org.apache.iceberg.HasTableOperations) source).operations().current()
        .metadataFileLocation();
    Path copy = gateway.dataDir().resolve("elsewhere.metadata.json");
    Files.copy(Path.of(metadata.substring("file:".length())), copy);
    assertThatThrownBy(() -> catalog.registerTable(TableIdentifier.of(ns, "stolen"),
        "file:" + copy))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("metadata location");
    assertThat(catalog.tableExists(TableIdentifier.of(ns, "stolen"))).isFalse();
    assertThat(catalog.registerTable(TableIdentifier.of(ns, "again"), metadata)).isNotNull();
  }
}
