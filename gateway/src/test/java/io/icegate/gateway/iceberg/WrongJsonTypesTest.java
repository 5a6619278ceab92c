package io.icegate.gateway.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.gateway.testing.GatewayFixture;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A request body member of the wrong JSON type (a number where the spec says string, a string
 * where it says array...) is the client's malformed body: 400 BadRequestException naming the
 * member, and nothing written. Found by the tryout: {@code {"namespace":[1,2]}} was read as the
 * namespace {@code 1.2} and answered 404 "parent does not exist".
 */
class WrongJsonTypesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SCHEMA = "\"schema\":{\"type\":\"struct\",\"schema-id\":0,"
      + "\"fields\":[]}";
  private static final String VIEW_VERSION = "{\"version-id\":1,\"timestamp-ms\":1,"
      + "\"schema-id\":0,\"summary\":{},\"default-namespace\":%s,"
      + "\"representations\":[{\"type\":\"sql\",\"sql\":\"select 1\",\"dialect\":\"spark\"}]}";
  private static GatewayFixture gateway;
  private static String base;

  @BeforeAll
  static void start() {
    gateway = GatewayFixture.start();
    base = "/iceberg/v1/" + gateway.prefix();
    ok("POST", "/namespaces", "{\"namespace\":[\"ns\"]}");
    ok("POST", "/namespaces/ns/tables", "{\"name\":\"t\"," + SCHEMA + "}");
    ok("POST", "/namespaces/ns/views", "{\"name\":\"v\"," + SCHEMA + ",\"view-version\":"
        + VIEW_VERSION.formatted("[\"ns\"]") + "}");
  }

  @AfterAll
  static void stop() {
    gateway.close();
  }

  private static void ok(String method, String path, String body) {
    HttpResponse<String> response = gateway.send(method, base + path, body);
    assertThat(response.statusCode()).as(response.body()).isBetween(200, 204);
  }

  private record Case(String method, String path, String body, String member) {}

  /** Sends every case; collects each one that is not a 400 BadRequestException naming its member. */
  private static void expectAllRefused(List<Case> cases) throws Exception {
    List<String> wrong = new ArrayList<>();
    for (Case c : cases) {
      long before = gateway.gateway().store().stats().committedWrites();
      HttpResponse<String> response = gateway.send(c.method(), base + c.path(), c.body());
      JsonNode error = response.body().isEmpty() ? null : JSON.readTree(response.body()).get("error");
      boolean refused = response.statusCode() == 400 && error != null
          && error.get("code").asInt() == 400
          && "BadRequestException".equals(error.get("type").asText())
          && error.get("message").asText().contains(c.member())
          && gateway.gateway().store().stats().committedWrites() == before;
      if (!refused) {
        wrong.add(c.method() + " " + c.path() + " " + c.body() + " -> "
            + response.statusCode() + " " + response.body());
      }
    }
    assertThat(wrong).isEmpty();
  }

  @Test
  void namespacesOfNonStringsAreRefused() throws Exception {
    List<Case> cases = new ArrayList<>();
    for (String namespace : new String[] {"[1,2]", "[\"a\",2]", "[true]", "[null]", "[[\"a\"]]",
        "[{\"a\":\"b\"}]", "\"ns2\"", "7", "{\"a\":\"b\"}"}) {
      cases.add(new Case("POST", "/namespaces", "{\"namespace\":" + namespace + "}",
          "namespace"));
    }
    expectAllRefused(cases);
    // nothing was created under any coerced name
    assertThat(gateway.send("GET", base + "/namespaces", null).body())
        .doesNotContain("\"1\"", "\"true\"", "\"null\"", "ns2");
  }

  @Test
  void propertiesOfNonStringsAreRefused() throws Exception {
    List<Case> cases = new ArrayList<>();
    for (String properties : new String[] {"{\"a\":1}", "{\"a\":1.5}", "{\"a\":true}",
        "{\"a\":{\"b\":\"c\"}}", "{\"a\":[\"b\"]}", "\"a=b\"", "[\"a\"]", "3"}) {
      cases.add(new Case("POST", "/namespaces",
          "{\"namespace\":[\"p\"],\"properties\":" + properties + "}", "properties"));
      cases.add(new Case("POST", "/namespaces/ns/properties", "{\"updates\":" + properties + "}",
          "updates"));
      cases.add(new Case("POST", "/namespaces/ns/tables",
          "{\"name\":\"p\"," + SCHEMA + ",\"properties\":" + properties + "}", "properties"));
    }
    cases.add(new Case("POST", "/namespaces/ns/properties", "{\"removals\":[1]}", "removals"));
    cases.add(new Case("POST", "/namespaces/ns/properties", "{\"removals\":\"a\"}", "removals"));
    expectAllRefused(cases);
  }

  @Test
  void createAndRegisterTableMembersOfTheWrongTypeAreRefused() throws Exception {
    expectAllRefused(List.of(
        new Case("POST", "/namespaces/ns/tables", "{\"name\":5," + SCHEMA + "}", "name"),
        new Case("POST", "/namespaces/ns/tables", "{\"name\":[\"x\"]," + SCHEMA + "}", "name"),
        new Case("POST", "/namespaces/ns/tables",
            "{\"name\":\"x\",\"location\":7," + SCHEMA + "}", "location"),
        new Case("POST", "/namespaces/ns/tables",
            "{\"name\":\"x\",\"stage-create\":\"yes\"," + SCHEMA + "}", "stage-create"),
        new Case("POST", "/namespaces/ns/tables",
            "{\"name\":\"x\",\"stage-create\":1," + SCHEMA + "}", "stage-create"),
        new Case("POST", "/namespaces/ns/register",
            "{\"name\":\"r\",\"metadata-location\":7}", "metadata-location"),
        new Case("POST", "/namespaces/ns/register",
            "{\"name\":9,\"metadata-location\":\"file:/tmp/m.json\"}", "name")));
  }

  @Test
  void renamesWithNonStringIdentifierPartsAreRefused() throws Exception {
    String good = "{\"namespace\":[\"ns\"],\"name\":\"t\"}";
    List<Case> cases = new ArrayList<>();
    for (String route : new String[] {"/tables/rename", "/views/rename"}) {
      for (String bad : new String[] {"{\"namespace\":[1],\"name\":\"t\"}",
          "{\"namespace\":[\"ns\"],\"name\":2}", "{\"namespace\":\"ns\",\"name\":\"t\"}",
          "\"ns.t\""}) {
        cases.add(new Case("POST", route, "{\"source\":" + good + ",\"destination\":" + bad + "}",
            "destination"));
        cases.add(new Case("POST", route, "{\"source\":" + bad + ",\"destination\":" + good + "}",
            "source"));
      }
    }
    expectAllRefused(cases);
  }

  @Test
  void updatesOfTheWrongTypeAreRefused() throws Exception {
    String table = "/namespaces/ns/tables/t";
    expectAllRefused(List.of(
        new Case("POST", table, "{\"requirements\":[],\"updates\":"
            + "[{\"action\":\"set-properties\",\"updates\":{\"a\":1}}]}", "a: 1"),
        new Case("POST", table, "{\"requirements\":[],\"updates\":"
            + "[{\"action\":\"remove-properties\",\"removals\":[1]}]}", "removals"),
        new Case("POST", table, "{\"requirements\":[],\"updates\":"
            + "[{\"action\":\"set-location\",\"location\":1}]}", "location"),
        new Case("POST", table, "{\"requirements\":[],\"updates\":{}}", "updates"),
        new Case("POST", table, "{\"requirements\":[],\"updates\":\"x\"}", "updates"),
        new Case("POST", table, "{\"requirements\":[{\"type\":\"assert-table-uuid\","
            + "\"uuid\":1}],\"updates\":[]}", "uuid"),
        new Case("POST", table, "{\"identifier\":{\"namespace\":[1],\"name\":\"t\"},"
            + "\"requirements\":[],\"updates\":[]}", "namespace"),
        new Case("POST", "/transactions/commit", "{\"table-changes\":[{\"identifier\":"
            + "{\"namespace\":[1],\"name\":\"t\"},\"requirements\":[],\"updates\":[]}]}",
            "namespace"),
        new Case("POST", "/namespaces/ns/views/v", "{\"requirements\":[],\"updates\":"
            + "[{\"action\":\"add-view-version\",\"view-version\":"
            + VIEW_VERSION.formatted("[2]") + "}]}", "default-namespace")));
  }

  @Test
  void viewsWithNonStringNamespacesOrPropertiesAreRefused() throws Exception {
    expectAllRefused(List.of(
        new Case("POST", "/namespaces/ns/views", "{\"name\":\"w\"," + SCHEMA
            + ",\"view-version\":" + VIEW_VERSION.formatted("[1]") + "}", "default-namespace"),
        new Case("POST", "/namespaces/ns/views", "{\"name\":\"w\"," + SCHEMA
            + ",\"view-version\":" + VIEW_VERSION.formatted("[\"ns\"]")
            + ",\"properties\":{\"a\":1}}", "a")));
  }

  /** A view's update sent to a table is the client's mistake too, never a 500. */
  @Test
  void aViewVersionUpdateSentToATableIs400() {
    String update = "{\"action\":\"add-view-version\",\"view-version\":"
        + VIEW_VERSION.formatted("[\"ns\"]") + "}";
    HttpResponse<String> direct = gateway.send("POST", base + "/namespaces/ns/tables/t",
        "{\"requirements\":[],\"updates\":[" + update + "]}");
    assertThat(direct.statusCode()).as(direct.body()).isEqualTo(400);
    assertThat(direct.body()).contains("BadRequestException", "AddViewVersion");
    HttpResponse<String> transaction = gateway.send("POST", base + "/transactions/commit",
        "{\"table-changes\":[{\"identifier\":{\"namespace\":[\"ns\"],\"name\":\"t\"},"
        + "\"requirements\":[],\"updates\":[" + update + "]}]}");
    assertThat(transaction.statusCode()).as(transaction.body()).isEqualTo(400);
    assertThat(transaction.body()).contains("BadRequestException", "AddViewVersion");
    // and a table's update sent to a view
    HttpResponse<String> toView = gateway.send("POST", base + "/namespaces/ns/views/v",
        "{\"requirements\":[],\"updates\":[{\"action\":\"remove-snapshots\","
        + "\"snapshot-ids\":[1]}]}");
    assertThat(toView.statusCode()).as(toView.body()).isEqualTo(400);
    assertThat(toView.body()).contains("BadRequestException");
  }
}
