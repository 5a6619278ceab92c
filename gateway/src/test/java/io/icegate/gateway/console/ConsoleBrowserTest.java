package io.icegate.gateway.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.gateway.fixturestore.ParquetAppend;
import io.icegate.gateway.testing.GatewayFixture;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console (issue 30) in a real headless Chromium against a gateway started here, federating
 * the in-process upstream Iceberg REST fixture (real Parquet files on s3proxy): an administrator
 * creates a Catalog, an Integration and an Overlay through the forms, validates, reconciles and
 * watches progress, reads a materialized table's nested schema and snapshot chart, sets and
 * clears a visibility override; a reader sees no write action; a wrong token is refused with its
 * code; a table named with markup stays text; one flow is done with the keyboard alone.
 *
 * <p>The methods run in order (each continues from the last) in one browser. Screenshots of the
 * main pages go to {@code target/console-screenshots/}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String UPSTREAM_SECRET = "upstream-bearer-" + UUID.randomUUID();
  /** Rendered as markup, it would run the script and set window.pwned. */
  static final String MARKUP_NAME = "<img src=x onerror=\"window.pwned=1\">";
  private static final Schema EVENTS = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "device", Types.StructType.of(
          Types.NestedField.optional(3, "model", Types.StringType.get()),
          Types.NestedField.optional(4, "os", Types.StringType.get()))),
      Types.NestedField.optional(5, "tags", Types.ListType.ofOptional(6, Types.StringType.get())),
      Types.NestedField.optional(7, "attributes", Types.MapType.ofOptional(8, 9,
          Types.StringType.get(), Types.StringType.get())));

  private static ObjectStoreFixture objects;
  private static IcebergRestFixture upstream;
  private static GatewayFixture gw;
  private static HeadlessChromium chromium;
  private static ChromeDriver browser;
  private static WebDriverWait wait;
  private static String account;

  /** A failed step leaves its screenshot and the page's text behind, to see what it showed. */
  @org.junit.jupiter.api.extension.RegisterExtension
  static final PageOnFailure FAILURES = new PageOnFailure(() -> chromium, () -> "");

  @BeforeAll
  static void start() throws Exception {
    objects = ObjectStoreFixture.startS3Proxy();
    upstream = IcebergRestFixture.start(objects);
    upstream.vending().plan(location -> upstream.storeKeysAsSession());
    upstream.backingCatalog().createNamespace(Namespace.of("lake"));
    upstream.backingCatalog().createTable(TableIdentifier.of("lake", "events"), EVENTS);
    upstream.backingCatalog().createTable(TableIdentifier.of("lake", "broken"), EVENTS);
    append("events", 3);
    append("events", 5);
    append("events", 2);
    removeObject(append("broken", 4).location());
    gw = GatewayFixture.start();
    account = gw.defaultAccountId();
    try (RESTCatalog client = gw.client()) {
      client.createNamespace(Namespace.of("web"));
      client.createTable(TableIdentifier.of(Namespace.of("web"), MARKUP_NAME), EVENTS);
    }
    chromium = HeadlessChromium.start();
    browser = chromium.driver();
    wait = new WebDriverWait(browser, Duration.ofSeconds(20));
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
  void aWrongTokenIsRefusedWithItsCodeAndMessage() {
    browser.get(console(""));
    WebElement token = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("token")));
    token.sendKeys("igt_not-a-token");
    browser.findElement(By.id("signin")).click();
    WebElement error = wait.until(ExpectedConditions.visibilityOfElementLocated(
        By.cssSelector(".signin .error")));
    assertThat(error.getText()).contains("UNAUTHENTICATED").contains("HTTP 401")
        .contains("This token was refused");
    assertThat(sessionToken()).isNull();
    assertThat(browser.findElement(By.id("nav")).isDisplayed()).isFalse();
    chromium.screenshot("sign-in-refused");
  }

  @Test
  @Order(2)
  void theFragmentSignsInAndLeavesTheAddressBar() {
    browser.get(console("#token=" + GatewayFixture.TOKEN));
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("who"), "server admin"));
    assertThat(browser.getCurrentUrl()).doesNotContain(GatewayFixture.TOKEN).doesNotContain("token=");
    assertThat(sessionToken()).isEqualTo(GatewayFixture.TOKEN);
    assertThat(browser.findElement(By.id("who")).getText()).contains("default").contains("admin");
  }

  @Test
  @Order(3)
  void anAdminCreatesACatalog() {
    go("#/catalogs");
    WebElement form = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("create-catalog")));
    form.findElement(By.name("name")).sendKeys("federated");
    form.findElement(By.name("warehouse")).sendKeys("file:/tmp/federated-" + UUID.randomUUID());
    form.findElement(By.name("properties")).sendKeys("owner=console");
    form.findElement(By.cssSelector("button[type=submit]")).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "federated"));
    assertThat(browser.findElement(By.tagName("main")).getText()).contains("owner").contains("console");
  }

  @Test
  @Order(4)
  void anAdminCreatesAnIntegrationAndValidatesIt() {
    go("#/integrations");
    WebElement form = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("create-integration")));
    form.findElement(By.name("displayName")).sendKeys("upstream-lake");
    form.findElement(By.name("uri")).sendKeys(upstream.uri().toString());
    StringBuilder properties = new StringBuilder();
    objects.s3Settings().forEach((k, v) -> properties.append(k).append('=').append(v).append('\n'));
    form.findElement(By.name("properties")).sendKeys(properties);
    new Select(form.findElement(By.id("auth-type"))).selectByValue("bearer");
    WebElement secret = form.findElement(By.name("auth.token"));
    secret.sendKeys(UPSTREAM_SECRET);
    assertThat(secret.getAttribute("type")).isEqualTo("password");
    form.findElement(By.cssSelector("button[type=submit]")).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "upstream-lake"));
    // the secret was sent once: neither the page nor its storage keeps it
    assertThat(browser.getPageSource()).doesNotContain(UPSTREAM_SECRET);
    assertThat((String) script("return JSON.stringify(sessionStorage)")).doesNotContain(UPSTREAM_SECRET);

    browser.findElement(By.id("validate")).click();
    WebElement result = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("validation-ok")));
    String checks = browser.findElement(By.id("validation")).getText();
    assertThat(checks).contains("connection").contains("authentication").contains("discovery");
    assertThat(result.getText()).isNotEmpty();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("discovery"), "lake"));
    chromium.screenshot("integration");
  }

  @Test
  @Order(5)
  void anUpdateOverAnotherWritersChangeIsExplainedAndTheFormReloads() throws Exception {
    // the integration page from the last step; someone else renames it meanwhile
    String path = browser.getCurrentUrl().substring(browser.getCurrentUrl().indexOf("#/") + 1);
    String integration = "/admin/v1/accounts/" + account + path;
    HttpResponse<String> current = gw.send("GET", integration, null);
    HttpResponse<String> renamed = gw.send("PATCH", integration, "{\"displayName\":\"lake-upstream\"}",
        "If-Match", current.headers().firstValue("ETag").orElseThrow());
    assertThat(renamed.statusCode()).as(renamed.body()).isEqualTo(200);
    WebElement form = browser.findElement(By.id("update-integration"));
    form.findElement(By.name("uri")).sendKeys("/v2");
    form.findElement(By.cssSelector("button[type=submit]")).click();
    WebElement outcome = wait.until(ExpectedConditions.visibilityOfElementLocated(
        By.cssSelector("#integration-outcome .error")));
    assertThat(outcome.getText()).contains("HTTP 412").contains("Someone changed this integration");
    assertThat(browser.findElement(By.id("update-integration")).findElement(By.name("displayName"))
        .getAttribute("value")).isEqualTo("lake-upstream");
    assertThat(browser.findElement(By.tagName("h1")).getText()).contains("lake-upstream");
    chromium.screenshot("integration-412");
    // the other writer's name stays; put ours back through the reloaded form
    WebElement reloaded = browser.findElement(By.id("update-integration"));
    reloaded.findElement(By.name("displayName")).clear();
    reloaded.findElement(By.name("displayName")).sendKeys("upstream-lake");
    reloaded.findElement(By.cssSelector("button[type=submit]")).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "upstream-lake"));
  }

  @Test
  @Order(6)
  void anAdminCreatesAnOverlayFromTheDiscoveryPickerAndReconcilesIt() {
    go("#/overlays");
    WebElement form = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("create-overlay")));
    form.findElement(By.name("displayName")).sendKeys("lake-overlay");
    new Select(form.findElement(By.id("overlay-integration"))).selectByVisibleText("upstream-lake");
    new Select(form.findElement(By.name("catalogId"))).selectByVisibleText("federated");
    WebElement pick = wait.until(ExpectedConditions.elementToBeClickable(
        By.cssSelector("select[aria-label='selection of lake']")));
    new Select(pick).selectByValue("include");
    chromium.screenshot("overlay-create");
    form.findElement(By.cssSelector("button[type=submit]")).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "lake-overlay"));
    assertThat(browser.findElement(By.tagName("main")).getText()).contains("Include").contains("lake");

    browser.findElement(By.id("reconcile")).click();
    wait.until(ExpectedConditions.textToBe(By.id("operation-state"), "SUCCEEDED"));
    String report = browser.findElement(By.id("last-report")).getText();
    assertThat(report).contains("created").contains("Held objects");
    assertThat(browser.findElement(By.id("operation-phase")).getText()).isEqualTo("DONE");
    chromium.screenshot("overlay-reconciled");
  }

  @Test
  @Order(7)
  void aMaterializedTableShowsItsNestedSchemaSnapshotChartAndProvenance() {
    openTable("federated", "lake", "events");
    WebElement schema = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("schema")));
    assertThat(schema.getText()).contains("device").contains("model").contains("element")
        .contains("key").contains("value").contains("list<string>").contains("map<string, string>");
    WebElement chart = browser.findElement(By.id("snapshot-chart"));
    // one bar per snapshot for records and one for files
    assertThat(chart.findElements(By.cssSelector("rect.bar-records"))).hasSize(3);
    assertThat(chart.findElements(By.cssSelector("rect.bar-files"))).hasSize(3);
    assertThat(chart.getAttribute("aria-label")).contains("3 snapshot");
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("validation-state"), "VALID"));
    String state = browser.findElement(By.id("table-admin")).getText();
    assertThat(state).contains("materialized by an Overlay").contains("Captured");
    chromium.screenshot("table");
    script("document.getElementById('schema').scrollIntoView()");
    chromium.screenshot("table-schema");
  }

  @Test
  @Order(8)
  void anAdminSetsAndClearsTheVisibilityOverrideOfAFailedTable() {
    openTable("federated", "lake", "broken");
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("validation-state"), "FAILED"));
    assertThat(browser.findElement(By.id("visible")).getText()).isEqualTo("no");
    // hidden from Iceberg clients: its metadata section shows the refusal with its code
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("table-metadata"), "HTTP 403"));
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("validation-errors"),
        "does not exist"));
    browser.findElement(By.id("override-note")).sendKeys("known gap");
    browser.findElement(By.id("override-set")).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("override-state"), "known gap"));
    assertThat(browser.findElement(By.id("visible")).getText()).isEqualTo("yes");
    chromium.screenshot("table-override");
    browser.findElement(By.id("override-clear")).click();
    wait.until(ExpectedConditions.textToBe(By.id("override-state"), "none"));
    assertThat(browser.findElement(By.id("visible")).getText()).isEqualTo("no");
  }

  @Test
  @Order(9)
  void theFederationMapAndHealthShowEveryPart() {
    go("#/map");
    WebElement map = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("federation-map")));
    assertThat(map.getText()).contains("upstream-lake").contains("lake-overlay").contains("federated")
        .contains("succeeded").contains("1 failed table");
    assertThat(map.findElements(By.cssSelector("path.edge"))).hasSize(2);
    chromium.screenshot("map");
    go("#/health");
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("readyz"), "ok"));
    assertThat(browser.findElement(By.tagName("main")).getText())
        .contains("icegate_http_requests_total");
    chromium.screenshot("health");
  }

  @Test
  @Order(10)
  void aTableNamedWithMarkupIsShownAsTextAndRunsNothing() {
    openTable("default", "web", MARKUP_NAME);
    WebElement name = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("table-name")));
    assertThat(name.getText()).isEqualTo(MARKUP_NAME);
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("schema")));
    assertThat((Object) script("return window.pwned === undefined")).isEqualTo(true);
    assertThat(browser.findElements(By.cssSelector("main img"))).isEmpty();
  }

  @Test
  @Order(11)
  void aReaderSeesNoWriteActions() throws Exception {
    HttpResponse<String> issued = gw.send("POST", "/admin/v1/accounts/" + account + "/tokens",
        "{\"name\":\"viewer\",\"role\":\"reader\"}");
    assertThat(issued.statusCode()).as(issued.body()).isEqualTo(201);
    String reader = JSON.readTree(issued.body()).get("token").asText();
    signOut();
    browser.get(console("#token=" + reader));
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("who"), "reader"));
    for (String route : List.of("#/catalogs", "#/integrations", "#/overlays")) {
      go(route);
      wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("main table")));
      assertThat(browser.findElements(By.cssSelector("section.write, form"))).as(route).isEmpty();
    }
    browser.findElement(By.linkText("lake-overlay")).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "lake-overlay"));
    assertThat(browser.findElements(By.id("reconcile"))).isEmpty();
    go("#/integrations");
    wait.until(ExpectedConditions.elementToBeClickable(By.linkText("upstream-lake"))).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("discovery"), "lake"));
    assertThat(browser.findElements(By.id("validate"))).isEmpty();
    assertThat(browser.findElements(By.cssSelector("section.write, form"))).isEmpty();
    openTable("federated", "lake", "broken");
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("validation-state"), "FAILED"));
    assertThat(browser.findElements(By.id("override-set"))).isEmpty();
    chromium.screenshot("reader");
  }

  @Test
  @Order(12)
  void theKeyboardAloneSignsInAndReachesHealth() {
    signOut();
    browser.get(console(""));
    // the token field has the focus; Enter submits the form
    WebElement focused = wait.until(d -> {
      WebElement active = d.switchTo().activeElement();
      return "token".equals(active.getAttribute("id")) ? active : null;
    });
    new Actions(browser).sendKeys(GatewayFixture.TOKEN).sendKeys(Keys.ENTER).perform();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("who"), "server admin"));
    assertThat(focused).isNotNull();
    boolean reached = false;
    for (int i = 0; i < 20 && !reached; i++) {
      new Actions(browser).sendKeys(Keys.TAB).perform();
      reached = "Health".equals(browser.switchTo().activeElement().getText());
    }
    assertThat(reached).as("Tab reaches the Health link").isTrue();
    new Actions(browser).sendKeys(Keys.ENTER).perform();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("readyz"), "ok"));
  }

  @Test
  @Order(13)
  void theCatalogPageIsReadableOnANarrowWindow() {
    chromium.size(420, 860);
    try {
      go("#/catalogs");
      wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("main table")));
      Long overflow = (Long) script(
          "return document.documentElement.scrollWidth - document.documentElement.clientWidth");
      assertThat(overflow).as("no sideways scrolling of the page").isLessThanOrEqualTo(0L);
      chromium.screenshot("narrow");
    } finally {
      chromium.size(1280, 800);
    }
  }

  private static String console(String fragment) {
    return gw.baseUri() + "/console/" + fragment;
  }

  private static void go(String route) {
    browser.get(console(route));
  }

  private static Object script(String code) {
    return ((JavascriptExecutor) browser).executeScript(code);
  }

  private static String sessionToken() {
    return (String) script("return sessionStorage.getItem('icegate.token')");
  }

  private static void signOut() {
    WebElement button = browser.findElement(By.id("sign-out"));
    if (button.isDisplayed()) {
      button.click();
    }
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("token")));
    assertThat(sessionToken()).isNull();
  }

  /** Opens a table's page as a user does: the catalog, its namespace, the table's link. */
  private static void openTable(String catalog, String namespace, String table) {
    go("#/catalogs");
    wait.until(ExpectedConditions.elementToBeClickable(By.linkText(catalog))).click();
    WebElement summary = wait.until(ExpectedConditions.elementToBeClickable(By.xpath(
        "//div[@id='namespaces']//summary[text()='" + namespace + "']")));
    summary.click();
    List<WebElement> links = new ArrayList<>();
    wait.until(d -> {
      links.clear();
      for (WebElement a : d.findElements(By.cssSelector("#namespaces ul.objects a"))) {
        if (a.getText().equals(table)) {
          links.add(a);
        }
      }
      return !links.isEmpty();
    });
    links.get(0).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("table-name"), table));
  }

  /** One upstream commit of a real Parquet file of {@code rows} rows to {@code lake.name}. */
  private static DataFile append(String name, int rows) throws Exception {
    try (RESTCatalog client = upstream.newClient()) {
      Table table = client.loadTable(TableIdentifier.of("lake", name));
      List<Record> records = new ArrayList<>();
      for (int i = 0; i < rows; i++) {
        Record row = GenericRecord.create(EVENTS);
        row.setField("id", (long) i);
        records.add(row);
      }
      return ParquetAppend.commit(table, UUID.randomUUID() + ".parquet", null, records);
    }
  }

  private static void removeObject(String location) {
    URI uri = URI.create(location);
    try (software.amazon.awssdk.services.s3.S3Client s3 = objects.newClient()) {
      s3.deleteObject(b -> b.bucket(uri.getHost()).key(uri.getPath().substring(1)));
    }
  }

  static JsonNode json(String body) throws Exception {
    return JSON.readTree(body);
  }
}
