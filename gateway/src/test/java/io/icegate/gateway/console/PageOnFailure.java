package io.icegate.gateway.console;

import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.By;

/**
 * Leaves what a failed browser step saw behind: its screenshot ({@code failed-<test>.png}) and the
 * page's address and text on standard output, plus what {@code more} says (e.g. the admin API's
 * answer the page should have shown). A failing wait alone says only which condition timed out.
 */
final class PageOnFailure implements AfterTestExecutionCallback {
  private final Supplier<HeadlessChromium> chromium;
  private final Supplier<String> more;

  PageOnFailure(Supplier<HeadlessChromium> chromium, Supplier<String> more) {
    this.chromium = chromium;
    this.more = more;
  }

  @Override
  public void afterTestExecution(ExtensionContext context) {
    HeadlessChromium browser = chromium.get();
    if (context.getExecutionException().isEmpty() || browser == null) {
      return;
    }
    String test = context.getRequiredTestMethod().getName();
    browser.screenshot("failed-" + test);
    System.out.println("page at failure of " + test + ": " + browser.driver().getCurrentUrl()
        + "\n" + browser.driver().findElement(By.tagName("body")).getText() + "\n" + more.get());
  }
}
