package io.icegate.cli.config;

import io.icegate.cli.CliException;
import io.icegate.cli.ExitCode;
import java.net.URI;
import java.net.URISyntaxException;

/**
 * The check of the gateway base URL before any request: {@code java.net.http} would otherwise
 * throw an unchecked exception from deep inside the client (a stack trace, not a usage error).
 * A URL without a scheme ({@code 127.0.0.1:8181}) is refused rather than taken as {@code http://}:
 * guessing could send the bearer token in clear text to a gateway the user meant to reach over
 * https; the message shows the URL to write instead.
 */
final class Endpoint {
  private Endpoint() {}

  /**
   * Refuses {@code url} unless it is an absolute http or https URL with a host and neither query,
   * fragment nor user info (the CLI appends {@code /admin/v1/...} to it).
   *
   * @param source where the value came from, for the message ({@code --endpoint}, {@code
   *     ICEGATE_ENDPOINT}, the config file)
   * @throws CliException USAGE naming the source and what is wrong
   */
  static void check(String url, String source) {
    String problem = problem(url);
    if (problem != null) {
      throw new CliException(ExitCode.USAGE, source + " " + problem
          + "; write the gateway's base URL as http://HOST:PORT or https://HOST:PORT, e.g. "
          + GlobalOptions.DEFAULT_ENDPOINT);
    }
  }

  /** What is wrong with {@code url}, or null when nothing is. */
  private static String problem(String url) {
    if (url.isBlank()) {
      return "is empty";
    }
    if (url.chars().anyMatch(Character::isISOControl)) {
      return "contains a control character"; // not echoed: it could garble the terminal
    }
    if (url.chars().anyMatch(Character::isWhitespace)) {
      return "'" + url + "' contains white space";
    }
    if (!url.contains("://")) {
      // "127.0.0.1:8181" is no URI at all, "localhost:8181" one with scheme "localhost"
      return "'" + url + "' has no http:// or https:// scheme";
    }
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      return "'" + url + "' is not a URL";
    }
    if (uri.getRawUserInfo() != null) {
      // never echoed: user info may hold a password
      return "carries user info (the CLI sends the token from --token-file or ICEGATE_TOKEN)";
    }
    String scheme = uri.getScheme();
    if (scheme == null || uri.isOpaque()) {
      return "'" + url + "' has no http:// or https:// scheme";
    }
    if (!scheme.equalsIgnoreCase("http") && !scheme.equalsIgnoreCase("https")) {
      return "'" + url + "' has scheme " + scheme + ", not http or https";
    }
    if (uri.getHost() == null || uri.getHost().isEmpty()) {
      return "'" + url + "' names no host";
    }
    if (uri.getPort() > 65_535) {
      return "'" + url + "' has port " + uri.getPort() + " (at most 65535)";
    }
    if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
      return "'" + url + "' has a query or fragment";
    }
    return null;
  }
}
