package io.icegate.gateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.cli.ExitCode;
import io.icegate.gateway.cli.CliUpstreamWorld.Run;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The {@code overlay} commands and the {@code integration validate|capabilities|namespaces|objects}
 * commands against a real gateway on loopback, run in-process through the gateway's picocli main
 * (as CliCommandsTest). Discovery reads a real upstream: Iceberg's own REST catalog code over
 * s3proxy (the catalog-access test fixture). Its JDBC backing catalog splits namespace names on
 * dots, so a segment holding a dot cannot be seeded upstream; quoting is covered by the overlay
 * paths here and by cli's PathSyntaxTest.
 */
class CliOverlayAndUpstreamTest {
  private static CliUpstreamWorld world;

  @BeforeAll
  static void start() throws Exception {
    world = CliUpstreamWorld.start("cli-upstream-secret-7c2e");
  }

  @AfterAll
  static void stop() throws Exception {
    world.close();
  }

  private static Run run(String... args) {
    return world.run(args);
  }




  private static List<List<String>> paths(JsonNode array) {
    return CliUpstreamWorld.JSON.convertValue(array,
        CliUpstreamWorld.JSON.getTypeFactory().constructCollectionType(List.class, List.class));
  }

  @Test
  void overlayLifecycleByNames() {
    String integrationId = world.createIntegration("ov-up", "https://rest.example.com/v1");
    String catalogId = run("catalog", "create", "ov-cat", "--warehouse", "file:/tmp/ov-cat",
        "-o", "json").expect(0).json().get("id").asText();

    JsonNode created = run("overlay", "create", "crm-import", "--integration", "ov-up",
        "--catalog", "ov-cat", "--include", "crm", "--include", "sales.\"q1.2026\".raw",
        "--exclude", "crm.tmp", "-o", "json").expect(0).json();
    String id = created.get("id").asText();
    assertThat(created.get("integrationId").asText()).isEqualTo(integrationId);
    assertThat(created.get("catalogId").asText()).isEqualTo(catalogId);
    assertThat(paths(created.get("includeNamespaces")))
        .containsExactly(List.of("crm"), List.of("sales", "q1.2026", "raw"));
    assertThat(paths(created.get("excludeNamespaces"))).containsExactly(List.of("crm", "tmp"));
    assertThat(created.get("etag").asText()).contains(id);

    Run listed = run("overlay", "list").expect(0);
    assertThat(listed.out().lines().findFirst().orElse(""))
        .startsWith("ID").contains("NAME").contains("INTEGRATION").contains("CATALOG");
    assertThat(listed.out()).contains("crm-import").contains(integrationId).contains(catalogId)
        .contains("crm, sales.\"q1.2026\".raw").contains("crm.tmp");
    assertThat(run("overlay", "get", "crm-import").expect(0).out())
        .contains("displayName:").contains(id).contains("etag:");

    long configuration = created.get("configurationGeneration").asLong();
    Run changed = run("overlay", "update", "crm-import", "--include", "finance", "-o", "json")
        .expect(0);
    assertThat(changed.err()).contains("using the current ETag").contains(id);
    JsonNode after = changed.json();
    assertThat(paths(after.get("includeNamespaces"))).containsExactly(List.of("finance"));
    assertThat(paths(after.get("excludeNamespaces"))).containsExactly(List.of("crm", "tmp"));
    assertThat(after.get("configurationGeneration").asLong()).isGreaterThan(configuration);

    JsonNode renamed = run("overlay", "update", "crm-import", "--name", "crm-2",
        "--exclude", "finance.\"a.b\"", "-o", "json").expect(0).json();
    assertThat(renamed.get("displayName").asText()).isEqualTo("crm-2");
    assertThat(paths(renamed.get("excludeNamespaces"))).containsExactly(List.of("finance", "a.b"));
    run("overlay", "update", "crm-2").expect(ExitCode.USAGE);
    run("overlay", "update", "crm-2", "--include", "x", "--if-match", "\"" + id + "/1\"")
        .expect(ExitCode.PRECONDITION_FAILED);

    assertThat(run("overlay", "delete", "crm-2").expect(0).out())
        .contains("deleted overlay crm-2 (" + id + ")");
    run("overlay", "get", "crm-2").expect(ExitCode.NOT_FOUND);
    // the catalog stays; the integration has no dependents left, so a plain delete works
    run("catalog", "get", "ov-cat").expect(0);
    run("integration", "delete", "ov-up").expect(0);
  }

  @Test
  void badPathsAndNamesAreRefusedBeforeAnythingIsCreated() {
    world.createIntegration("ov-bad-up", "https://rest.example.com/v1");
    run("catalog", "create", "ov-bad-cat", "--warehouse", "file:/tmp/ov-bad-cat").expect(0);
    Run unterminated = run("overlay", "create", "bad", "--integration", "ov-bad-up",
        "--catalog", "ov-bad-cat", "--include", "sales.\"q1.2026").expect(ExitCode.USAGE);
    assertThat(unterminated.err())
        .contains("namespace path 'sales.\"q1.2026' has an unterminated quote");
    Run empty = run("overlay", "create", "bad", "--integration", "ov-bad-up",
        "--catalog", "ov-bad-cat", "--exclude", "a..b").expect(ExitCode.USAGE);
    assertThat(empty.err()).contains("namespace path 'a..b' has an empty segment at character 3");
    Run noCatalog = run("overlay", "create", "bad", "--integration", "ov-bad-up",
        "--catalog", "no-such-catalog", "--include", "crm").expect(ExitCode.NOT_FOUND);
    assertThat(noCatalog.err()).contains("no catalog named 'no-such-catalog'");
    assertThat(run("overlay", "list", "-o", "json").expect(0).json().get("items"))
        .noneMatch(o -> o.get("displayName").asText().equals("bad"));
  }

  @Test
  void validateAgainstAClosedPortPrintsFailedChecksAndExitsEight() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    world.createIntegration("closed-up", "http://127.0.0.1:" + port + "/v1");

    Run table = run("integration", "validate", "closed-up").expect(ExitCode.VALIDATION_FAILED);
    assertThat(table.out().lines().findFirst().orElse(""))
        .startsWith("CHECK").contains("STATUS").contains("CODE").contains("MESSAGE");
    assertThat(table.out()).containsPattern("(?m)^connection\\s+failed\\s+\\S+");
    assertThat(table.err()).contains("validation of integration closed-up did not pass")
        .contains("connection=failed");

    JsonNode report = run("integration", "validate", "closed-up", "-o", "json")
        .expect(ExitCode.VALIDATION_FAILED).json();
    assertThat(report.get("ok").asBoolean()).isFalse();
    JsonNode connection = report.get("checks").get(0);
    assertThat(connection.get("check").asText()).isEqualTo("connection");
    assertThat(connection.get("status").asText()).isEqualTo("failed");
    assertThat(connection.get("code").asText()).isNotBlank();
  }

  @Test
  void validateProbesTheTableNamedByProbeTable() {
    world.createIntegration("probe-up", world.upstream.uri().toString());

    // the fixture vends nothing: the named table is the one reported, and nothing replaces it
    Run table = run("integration", "validate", "probe-up",
        "--probe-table", "sales.emea.customers").expect(ExitCode.VALIDATION_FAILED);
    assertThat(table.out()).containsPattern("(?m)^credential-vending\\s+failed\\s+NOT_VENDED");
    assertThat(table.err()).contains("probed table: sales.emea.customers");
    JsonNode report = run("integration", "validate", "probe-up", "--probe-table", "sales.orders",
        "-o", "json").expect(ExitCode.VALIDATION_FAILED).json();
    assertThat(report.get("probedTable").get("namespace").toString()).isEqualTo("[\"sales\"]");
    assertThat(report.get("probedTable").get("name").asText()).isEqualTo("orders");

    // without it, every table asked vends nothing and each is named
    Run searched = run("integration", "validate", "probe-up").expect(ExitCode.VALIDATION_FAILED);
    assertThat(searched.err()).contains("skipped table Marketing.Campaigns: NOT_VENDED")
        .contains("probed table: none");

    run("integration", "validate", "probe-up", "--probe-table", "orders").expect(ExitCode.USAGE);
    run("integration", "validate", "probe-up", "--probe-table", "sales.").expect(ExitCode.USAGE);
  }

  @Test
  void capabilitiesOfAnIcebergRestIntegration() {
    world.createIntegration("caps-up", "https://rest.example.com/v1");
    Run table = run("integration", "capabilities", "caps-up").expect(0);
    assertThat(table.out().lines().findFirst().orElse("")).isEqualTo("CAPABILITY");
    assertThat(table.out()).contains("TABLES").contains("HIERARCHICAL_NAMESPACES");
    assertThat(table.err()).contains("supportsViews: true");
    JsonNode json = run("integration", "capabilities", "caps-up", "-o", "json").expect(0).json();
    assertThat(json.get("capabilities")).extracting(JsonNode::asText).contains("TABLES");
    assertThat(json.get("supportsViews").asBoolean()).isTrue();
    run("integration", "capabilities", "no-such-integration").expect(ExitCode.NOT_FOUND);
  }

  @Test
  void namespacesAndObjectsOfARealUpstream() {
    world.createIntegration("disc-up", world.upstream.uri().toString());

    Run root = run("integration", "namespaces", "disc-up").expect(0);
    assertThat(root.out().lines().toList()).containsExactly("NAMESPACE", "Marketing", "sales");
    Run children = run("integration", "namespaces", "disc-up", "--parent", "sales").expect(0);
    assertThat(children.out().lines().toList())
        .containsExactly("NAMESPACE", "sales.emea");
    JsonNode json = run("integration", "namespaces", "disc-up", "--parent", "sales", "-o", "json")
        .expect(0).json();
    assertThat(paths(json.get("namespaces"))).containsExactly(List.of("sales", "emea"));
    // two segments go out as one %1F-separated parameter: sales.emea has no children
    assertThat(run("integration", "namespaces", "disc-up", "--parent", "sales.emea")
        .expect(0).out().lines().toList()).containsExactly("NAMESPACE");

    Run firstPage = run("integration", "namespaces", "disc-up", "--page-size", "1", "-o", "json")
        .expect(0);
    String token = firstPage.json().get("nextPageToken").asText();
    assertThat(paths(firstPage.json().get("namespaces"))).containsExactly(List.of("Marketing"));
    assertThat(paths(run("integration", "namespaces", "disc-up", "--page-size", "1",
        "--page-token", token, "-o", "json").expect(0).json().get("namespaces")))
        .containsExactly(List.of("sales"));
    assertThat(run("integration", "namespaces", "disc-up", "--page-size", "1").expect(0).err())
        .contains("more namespaces: --page-token");
    assertThat(paths(run("integration", "namespaces", "disc-up", "--page-size", "1", "--all",
        "-o", "json").expect(0).json().get("namespaces")))
        .containsExactly(List.of("Marketing"), List.of("sales"));

    Run objects = run("integration", "objects", "disc-up", "--namespace", "sales").expect(0);
    assertThat(objects.out().lines().toList().get(0)).startsWith("KIND").contains("NAMESPACE")
        .contains("NAME");
    assertThat(objects.out()).containsPattern("(?m)^table\\s+sales\\s+orders$")
        .containsPattern("(?m)^view\\s+sales\\s+order_summary$");
    JsonNode views = run("integration", "objects", "disc-up", "--namespace", "sales",
        "--kind", "view", "--all", "-o", "json").expect(0).json();
    assertThat(views.get("objects")).extracting(o -> o.get("name").asText())
        .containsExactly("order_summary");
    assertThat(views.get("nextPageToken").isNull()).isTrue();
    JsonNode nested = run("integration", "objects", "disc-up", "--namespace", "sales.emea",
        "-o", "json").expect(0).json();
    assertThat(nested.get("objects")).extracting(o -> o.get("name").asText())
        .containsExactly("customers");

    run("integration", "objects", "disc-up", "--namespace", "sales", "--kind", "index")
        .expect(ExitCode.USAGE);
    run("integration", "objects", "disc-up", "--namespace", "sales.").expect(ExitCode.USAGE);
    run("integration", "objects", "disc-up").expect(ExitCode.USAGE);
  }
}
