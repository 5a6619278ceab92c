package io.icegate.gateway.console;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's headless Chromium driven through Debian's chromedriver (packages {@code chromium} and
 * {@code chromium-driver}), one per test class. Both paths are given to Selenium, so Selenium
 * Manager never tries to download a browser or a driver. Without the packages the tests skip with
 * a message naming them; under CI ({@code CI=true}) they fail instead, since {@code .ci/run}
 * installs the packages and these tests are mandatory there.
 */
final class HeadlessChromium implements AutoCloseable {
  static final Path BROWSER = Path.of("/usr/bin/chromium");
  static final Path DRIVER = Path.of("/usr/bin/chromedriver");
  /** Where screenshots are written: a build artifact, never committed from here. */
  static final Path SCREENSHOTS = Path.of("target", "console-screenshots");

  private final ChromeDriver driver;
  private final Path profile;

  private HeadlessChromium(ChromeDriver driver, Path profile) {
    this.driver = driver;
    this.profile = profile;
  }

  /** Starts the browser, or skips (fails under CI) when the packages are missing. */
  static HeadlessChromium start() throws IOException {
    if (!Files.isExecutable(BROWSER) || !Files.isExecutable(DRIVER)) {
      String message = "the console's browser tests need Debian's chromium and chromium-driver "
          + "(apt-get install -y chromium chromium-driver): " + BROWSER + " or " + DRIVER
          + " is missing";
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        Assertions.fail(message + "; under CI (CI=true) these tests are mandatory");
      }
      Assumptions.abort(message);
    }
    Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
    Path profile = Files.createTempDirectory("icegate-chromium");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(BROWSER.toFile());
    // The closed network of these machines refuses Chromium's own background connections; without
    // these flags it retries them, many at a time, at every start.
    options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--disable-dev-shm-usage", "--user-data-dir=" + profile,
        "--window-size=1280,800", "--lang=en-US");
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(DRIVER.toFile()).usingAnyFreePort().build();
    ChromeDriver driver = new ChromeDriver(service, options);
    driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(20));
    return new HeadlessChromium(driver, profile);
  }

  ChromeDriver driver() {
    return driver;
  }

  /** Sets the window's inner size (1280x800 desktop, or a narrow phone-like width). */
  void size(int width, int height) {
    driver.manage().window().setSize(new Dimension(width, height));
  }

  /** Saves a screenshot of the window as {@code target/console-screenshots/NAME.png}. */
  Path screenshot(String name) {
    try {
      Files.createDirectories(SCREENSHOTS);
      Path file = SCREENSHOTS.resolve(name + ".png");
      Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    try {
      driver.quit();
    } finally {
      try (Stream<Path> files = Files.walk(profile)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException e) {
        // a leftover profile in the temp dir is harmless
      }
    }
  }
}
