package io.icegate.gateway.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.gateway.testing.GatewayFixture;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.iceberg.catalog.Namespace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console's refresh views (issue 28) in a real headless Chromium against a gateway whose own
 * scheduler runs (PT5S floor): one Overlay refreshed from the in-process upstream Iceberg REST
 * fixture (its last success and lag), one whose upstream is down (a closed port: the scheduler's
 * rounds fail and it backs off with its last error). The pages must show what the schedule routes
 * answer; pause and resume are clicked in the page and read back over the admin API, and an edit
 * over another writer's change is a 412 explained with the page reloaded.
 *
 * <p>The methods run in order (each continues from the last) in one browser.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleScheduleBrowserTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static ObjectStoreFixture objects;
  private static IcebergRestFixture upstream;
  private static GatewayFixture gw;
  private static HeadlessChromium chromium;
  private static ChromeDriver browser;
  private static WebDriverWait wait;
  private static String admin;
  private static String fresh;
  private static String failing;
  private static String downIntegration;

  /** A failed step leaves the page behind, with the schedules the API answers now. */
  @org.junit.jupiter.api.extension.RegisterExtension
  static final PageOnFailure FAILURES = new PageOnFailure(() -> chromium, () -> {
    try {
      return "the API's schedules now: " + api("/overlays/" + fresh + "/schedule") + " "
          + api("/overlays/" + failing + "/schedule");
    } catch (Exception | AssertionError e) {
      return "the API's schedules could not be read: " + e;
    }
  });

  @BeforeAll
  static void start() throws Exception {
    objects = ObjectStoreFixture.startS3Proxy();
    upstream = IcebergRestFixture.start(objects);
    upstream.backingCatalog().createNamespace(Namespace.of("lake"));
    gw = GatewayFixture.start();
    admin = "/admin/v1/accounts/" + gw.defaultAccountId();
    String catalog = created("/catalogs", "{\"name\":\"mirror\",\"warehouse\":\"file:"
        + gw.dataDir().resolve("mirror") + "\"}");
    String up = created("/integrations", integration("lake-upstream", upstream.uri().toString()));
    downIntegration = created("/integrations", integration("down-upstream",
        "http://127.0.0.1:" + closedPort()));
    // One round at once, then none for ten minutes: the page finds it idle, not between rounds.
    fresh = created("/overlays", overlay("fresh-overlay", up, catalog, "lake", "PT10M", "P7D"));
    failing = created("/overlays", overlay("failing-overlay", downIntegration, catalog, "down",
        "PT5S", null));
    // The gateway's own scheduler runs the rounds: one success, one upstream that refuses.
    awaitApi("/overlays/" + fresh + "/schedule", s -> !s.path("lastSuccessAt").isNull());
    awaitApi("/overlays/" + failing + "/schedule", s -> s.path("state").asText().equals("backoff"));
    chromium = HeadlessChromium.start();
    browser = chromium.driver();
    wait = new WebDriverWait(browser, Duration.ofSeconds(20));
    browser.get(gw.baseUri() + "/console/#token=" + GatewayFixture.TOKEN);
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("who"), "server admin"));
  }

  @AfterAll
  static void stop() throws Exception {
    // closed in reverse order (the browser first); a part that never started is null, skipped
    try (AutoCloseable o = objects; AutoCloseable u = upstream; AutoCloseable g = gw;
        AutoCloseable c = chromium) {
      // only closing
    }
  }

  @Test
  @Order(1)
  void theOverlayListShowsDemandAndScheduleState() {
    go("#/overlays");
    awaitScheduleCells();
    assertThat(row("fresh-overlay")).contains("every PT10M · keep P7D").containsPattern("lag \\d+ s");
    assertThat(row("failing-overlay")).contains("every PT5S").contains("backoff");
    chromium.screenshot("overlays-schedule");
  }

  @Test
  @Order(2)
  void aBackingOffOverlayShowsTheLastErrorTheServerAnswers() throws Exception {
    JsonNode s = api("/overlays/" + failing + "/schedule");
    openUntil("#/overlays/" + failing, "schedule-state", "backoff");
    WebElement error = browser.findElement(By.id("last-error"));
    assertThat(error.getText()).contains(s.path("lastError").path("code").asText())
        .contains("HTTP " + s.path("lastError").path("status").asInt());
    assertThat(error.getAttribute("role")).as("a stored error is no live alert").isNull();
    assertThat(browser.findElement(By.id("next-run")).getText()).isNotEqualTo("—");
    assertThat(browser.findElement(By.id("last-success")).getText()).isEqualTo("—");
    assertThat(browser.findElement(By.tagName("main")).getText()).contains("Refresh interval\nPT5S");
    chromium.screenshot("overlay-backoff");
  }

  @Test
  @Order(3)
  void pauseAndResumeOfAnOverlayGoThroughTheApi() throws Exception {
    openUntil("#/overlays/" + fresh, "schedule-state", "idle");
    assertThat(browser.findElement(By.id("last-success")).getText()).isNotEqualTo("—");
    assertThat(browser.findElement(By.tagName("main")).getText()).contains("Retention\nP7D")
        .containsPattern("Lag\\n\\d+ s");
    click("Pause");
    wait.until(ExpectedConditions.textToBe(By.id("pause-outcome"), "Paused."));
    assertThat(browser.findElement(By.id("paused")).getText()).isEqualTo("yes");
    assertThat(api("/overlays/" + fresh).path("paused").asBoolean()).isTrue();
    assertThat(browser.findElement(By.id("schedule-state")).getText()).isEqualTo("paused");
    click("Resume");
    wait.until(ExpectedConditions.textToBe(By.id("pause-outcome"), "Resumed."));
    assertThat(browser.findElement(By.id("paused")).getText()).isEqualTo("no");
    assertThat(api("/overlays/" + fresh).path("paused").asBoolean()).isFalse();
    assertThat(api("/overlays/" + fresh + "/schedule").path("state").asText()).isNotEqualTo("paused");
  }

  @Test
  @Order(4)
  void aPauseOverAnotherWritersChangeIsExplainedAndThePageReloads() throws Exception {
    // the overlay page from the last step; someone else changes the retention meanwhile
    HttpResponse<String> current = gw.send("GET", admin + "/overlays/" + fresh, null);
    HttpResponse<String> changed = gw.send("PATCH", admin + "/overlays/" + fresh,
        "{\"retention\":\"P14D\"}", "If-Match", current.headers().firstValue("ETag").orElseThrow());
    assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
    click("Pause");
    WebElement outcome = wait.until(ExpectedConditions.visibilityOfElementLocated(
        By.cssSelector("#pause-outcome .error")));
    assertThat(outcome.getText()).contains("HTTP 412").contains("Someone changed this overlay");
    assertThat(browser.findElement(By.tagName("main")).getText()).contains("Retention\nP14D");
    assertThat(api("/overlays/" + fresh).path("paused").asBoolean()).isFalse();
    chromium.screenshot("overlay-pause-412");
    click("Pause"); // over the reloaded version it goes through
    wait.until(ExpectedConditions.textToBe(By.id("pause-outcome"), "Paused."));
    assertThat(api("/overlays/" + fresh).path("paused").asBoolean()).isTrue();
    click("Resume");
    wait.until(ExpectedConditions.textToBe(By.id("pause-outcome"), "Resumed."));
    assertThat(api("/overlays/" + fresh).path("paused").asBoolean()).isFalse();
  }

  @Test
  @Order(5)
  void anIntegrationShowsItsPlanAndBackoffAndIsPausedFromThePage() throws Exception {
    go("#/integrations");
    awaitScheduleCells();
    assertThat(row("down-upstream")).contains("every PT5S").contains("backing off");
    assertThat(row("lake-upstream")).contains("every PT10M").doesNotContain("backing off");
    JsonNode plan = api("/integrations/" + downIntegration + "/schedule");
    go("#/integrations/" + downIntegration);
    wait.until(ExpectedConditions.textToBe(By.id("schedule-interval"), plan.path("interval").asText()));
    assertThat(plan.path("interval").asText()).isEqualTo("PT5S");
    assertThat(browser.findElement(By.id("last-error")).getText())
        .contains(plan.path("lastError").path("code").asText());
    assertThat(browser.findElement(By.id("schedule")).getText()).contains("failing-overlay");
    chromium.screenshot("integration-schedule");
    click("Pause");
    wait.until(ExpectedConditions.textToBe(By.id("pause-outcome"), "Paused."));
    assertThat(browser.findElement(By.id("paused")).getText()).isEqualTo("yes");
    assertThat(api("/integrations/" + downIntegration).path("paused").asBoolean()).isTrue();
    assertThat(api("/overlays/" + failing + "/schedule").path("state").asText()).isEqualTo("paused");
    // the Overlay shows its Integration's pause, and a reconcile on request is refused with its code
    openUntil("#/overlays/" + failing, "schedule-state", "paused");
    browser.findElement(By.id("reconcile")).click();
    WebElement refused = wait.until(ExpectedConditions.visibilityOfElementLocated(
        By.cssSelector("#reconcile-progress .error")));
    assertThat(refused.getText()).contains("INTEGRATION_PAUSED").contains("HTTP 409");
    go("#/integrations");
    awaitScheduleCells();
    assertThat(row("down-upstream")).contains("paused");
    go("#/integrations/" + downIntegration);
    click("Resume");
    wait.until(ExpectedConditions.textToBe(By.id("pause-outcome"), "Resumed."));
    assertThat(browser.findElement(By.id("paused")).getText()).isEqualTo("no");
    assertThat(api("/integrations/" + downIntegration).path("paused").asBoolean()).isFalse();
  }

  @Test
  @Order(6)
  void aReaderSeesTheScheduleButNoPauseAction() throws Exception {
    HttpResponse<String> issued = gw.send("POST", admin + "/tokens",
        "{\"name\":\"viewer\",\"role\":\"reader\"}");
    assertThat(issued.statusCode()).as(issued.body()).isEqualTo(201);
    browser.findElement(By.id("sign-out")).click();
    go("#token=" + JSON.readTree(issued.body()).get("token").asText());
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("who"), "reader"));
    openUntil("#/overlays/" + fresh, "schedule-state", "idle");
    assertThat(browser.findElements(By.id("pause-toggle"))).isEmpty();
    go("#/integrations/" + downIntegration);
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("schedule-interval")));
    assertThat(browser.findElements(By.id("pause-toggle"))).isEmpty();
    assertThat(browser.findElements(By.cssSelector("section.write"))).isEmpty();
  }

  private static void go(String route) {
    browser.get(gw.baseUri() + "/console/" + route);
  }

  /** The page's Pause/Resume button, clicked once it says {@code label}. */
  private static void click(String label) {
    wait.until(ExpectedConditions.textToBe(By.id("pause-toggle"), label));
    browser.findElement(By.id("pause-toggle")).click();
  }

  /** Waits until a list's two schedule cells (filled when their route answers) show an answer. */
  private static void awaitScheduleCells() {
    wait.until(d -> {
      var cells = d.findElements(By.cssSelector(".schedule-cell"));
      return cells.size() == 2 && cells.stream().noneMatch(c -> c.getText().equals("…"));
    });
  }

  /** The text of the list row naming {@code name}. */
  private static String row(String name) {
    return browser.findElement(By.xpath("//tr[td/a[text()='" + name + "']]")).getText();
  }

  /**
   * Opens a page until its element {@code id} says {@code text}: the page shows the schedule as
   * it was when loaded, and a retry round of the scheduler may be running at that moment.
   */
  private static void openUntil(String route, String id, String text) {
    new WebDriverWait(browser, Duration.ofSeconds(30)).until(d -> {
      go(route);
      try {
        return new WebDriverWait(browser, Duration.ofSeconds(3))
            .until(ExpectedConditions.textToBe(By.id(id), text));
      } catch (org.openqa.selenium.TimeoutException e) {
        return false;
      }
    });
  }

  private static JsonNode api(String path) throws Exception {
    HttpResponse<String> response = gw.send("GET", admin + path, null);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  private static void awaitApi(String path, Predicate<JsonNode> done) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    JsonNode last = api(path);
    while (!done.test(last)) {
      assertThat(System.nanoTime()).as("schedule of %s: %s", path, last).isLessThan(deadline);
      Thread.sleep(200);
      last = api(path);
    }
  }

  private static String created(String collection, String body) throws Exception {
    HttpResponse<String> response = gw.send("POST", admin + collection, body);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    return JSON.readTree(response.body()).get("id").asText();
  }

  private static String integration(String name, String uri) throws Exception {
    return JSON.writeValueAsString(Map.of("displayName", name, "type", "ICEBERG_REST", "uri", uri,
        "properties", objects.s3Settings(),
        "authentication", Map.of("type", "bearer", "token", "upstream-token")));
  }

  private static String overlay(String name, String integration, String catalog, String include,
      String interval, String retention) throws Exception {
    java.util.Map<String, Object> body = new java.util.LinkedHashMap<>(Map.of("displayName", name,
        "integrationId", integration, "catalogId", catalog,
        "includeNamespaces", java.util.List.of(java.util.List.of(include)),
        "refreshInterval", interval));
    if (retention != null) {
      body.put("retention", retention);
    }
    return JSON.writeValueAsString(body);
  }

  /** A loopback port nothing listens on: an upstream that is down. */
  private static int closedPort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
