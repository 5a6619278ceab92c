package io.icegate.admin;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * Headers that take one value, read the same way on the admin and the Iceberg routes; each
 * refuses a repeated header in its own error form.
 */
public final class HeaderLines {
  private HeaderLines() {}

  /**
   * A header that takes one value, or null. Several lines are refused: Jetty's getHeader answers
   * the first, while a proxy in front may have checked another (two bearer tokens), and a retry
   * keyed by the other line would not be recognized (two Idempotency-Keys).
   *
   * @param repeated the refusal, given the problem's text
   */
  public static String single(HttpServletRequest req, String name,
      Function<String, RuntimeException> repeated) {
    List<String> lines = Collections.list(req.getHeaders(name));
    if (lines.size() > 1) {
      throw repeated.apply(
          "the " + name + " header is given " + lines.size() + " times; give it once");
    }
    return lines.isEmpty() ? null : lines.get(0);
  }
}
