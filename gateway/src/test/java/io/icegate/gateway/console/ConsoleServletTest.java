package io.icegate.gateway.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.gateway.testing.GatewayFixture;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The console's files over HTTP from a running gateway: the page and its modules with their
 * types, the strict Content-Security-Policy on every answer, nothing outside the console folder,
 * and no inline script in the page (the policy would refuse it anyway).
 */
class ConsoleServletTest {
  private static GatewayFixture gw;

  @BeforeAll
  static void start() {
    gw = GatewayFixture.start();
  }

  @AfterAll
  static void stop() {
    gw.close();
  }

  private static HttpResponse<String> get(String path) {
    return gw.send("GET", path, null, "Authorization", "");
  }

  @Test
  void thePageAndItsModulesAreServedUnderAStrictPolicy() {
    HttpResponse<String> page = get("/console/");
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
    String policy = page.headers().firstValue("Content-Security-Policy").orElseThrow();
    assertThat(policy).contains("default-src 'none'").contains("script-src 'self'")
        .contains("frame-ancestors 'none'").doesNotContain("unsafe-inline")
        .doesNotContain("unsafe-eval");
    assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    assertThat(page.body()).contains("<script type=\"module\" src=\"app.js\"></script>");
    // every script is a file of the console: no inline code, no handler attributes
    assertThat(page.body().replace("<script type=\"module\" src=\"app.js\"></script>", ""))
        .doesNotContain("<script").doesNotContainPattern("(?i)\\son[a-z]+=");

    for (String module : new String[] {"app.js", "api.js", "dom.js", "catalogs.js", "tables.js",
        "integrations.js", "overlays.js", "map.js", "health.js", "charts.js", "forms.js",
        "errors.js", "schedules.js"}) {
      HttpResponse<String> js = get("/console/" + module);
      assertThat(js.statusCode()).as(module).isEqualTo(200);
      assertThat(js.headers().firstValue("Content-Type").orElse("")).as(module)
          .startsWith("text/javascript");
      assertThat(js.headers().firstValue("Content-Security-Policy")).hasValue(policy);
      // text only: no module writes markup from strings
      assertThat(js.body()).as(module).doesNotContain("innerHTML").doesNotContain("outerHTML")
          .doesNotContain("insertAdjacentHTML").doesNotContain("document.write")
          .doesNotContain("eval(");
    }
    assertThat(get("/console/app.css").headers().firstValue("Content-Type").orElse(""))
        .startsWith("text/css");
    // the page names its icon, so browsers do not ask for a /favicon.ico the gateway lacks
    assertThat(page.body()).contains("<link rel=\"icon\" href=\"icon.svg\"");
    HttpResponse<String> icon = get("/console/icon.svg");
    assertThat(icon.statusCode()).isEqualTo(200);
    assertThat(icon.headers().firstValue("Content-Type").orElse("")).startsWith("image/svg+xml");
  }

  @Test
  void nothingOutsideTheConsoleFolderIsServed() {
    assertThat(get("/console/../admin/v1/openapi.yaml").statusCode()).isNotEqualTo(200);
    assertThat(get("/console/%2e%2e/META-INF/MANIFEST.MF").statusCode()).isIn(400, 404);
    assertThat(get("/console/openapi.yaml").statusCode()).isEqualTo(404);
    assertThat(get("/console/nested/app.js").statusCode()).isEqualTo(404);
    assertThat(get("/console/absent.js").statusCode()).isEqualTo(404);
    HttpResponse<String> post = gw.send("POST", "/console/", "{}");
    assertThat(post.statusCode()).isEqualTo(405);
    HttpResponse<String> bare = get("/console");
    assertThat(bare.statusCode()).isEqualTo(301);
    assertThat(bare.headers().firstValue("Location")).hasValue("/console/");
  }

  @Test
  void authenticatedAnswersAreNeverStored() {
    HttpResponse<String> admin = gw.send("GET", "/admin/v1/token", null);
    assertThat(admin.headers().firstValue("Cache-Control")).hasValue("no-store");
    HttpResponse<String> iceberg = gw.send("GET", "/iceberg/v1/" + gw.prefix() + "/namespaces",
        null);
    assertThat(iceberg.statusCode()).isEqualTo(200);
    assertThat(iceberg.headers().firstValue("Cache-Control")).hasValue("no-store");
  }
}
