package io.icegate.core.integration;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.ResourceKind;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The connection boundary of seed 001 ("Connection boundary") applied to what an integration
 * persists: its URI and connection properties carry no secret and no credential-provider handle.
 * Rejections name the offending key or URI part and never echo its value
 * (CONNECTION_SETTING_REJECTED).
 */
public final class ConnectionBoundary {
  /**
   * Name fragments that mark a key as secret-bearing, compared on the key lower-cased with {@code
   * -}, {@code _} and {@code .} removed (so {@code client_secret}, {@code client.secret} and
   * {@code clientSecret} all match {@code clientsecret}).
   */
  private static final List<String> SECRET_FRAGMENTS = List.of(
      "secret", "password", "passwd", "token", "credential", "apikey", "accesskey", "privatekey",
      "sessionkey", "authorization", "signature", "sig", "bearer");

  /**
   * Keys that select a credential provider by class or profile (a handle into the server's own
   * credentials), compared the same way.
   */
  private static final List<String> PROVIDER_HANDLES = List.of(
      "credentialsprovider", "credentialprovider", "awsprofile", "profile", "rolearn",
      "clientcredentialsprovider", "authmanager", "authimpl", "authtype");

  private ConnectionBoundary() {}

  /**
   * Checks an integration's URI and connection properties.
   *
   * @return the parsed URI
   * @throws IcegateException CONNECTION_SETTING_REJECTED naming the URI part or property key
   */
  public static URI check(String uri, Map<String, String> properties) {
    URI parsed = checkUri(uri);
    for (String key : properties.keySet()) {
      String normalized = normalize(key);
      if (isSecretName(normalized)) {
        throw rejected("property " + quoted(key) + " (secret-bearing name)");
      }
      if (PROVIDER_HANDLES.contains(normalized)) {
        throw rejected("property " + quoted(key) + " (credential-provider handle)");
      }
      if (normalized.startsWith("header")) {
        // rest's header.* properties travel as HTTP headers: only non-secret ones may persist.
        String header = normalized.substring("header".length());
        if (isSecretName(header) || header.equals("cookie") || header.equals("xapikey")) {
          throw rejected("property " + quoted(key) + " (secret-bearing header)");
        }
      }
    }
    return parsed;
  }

  /** Checks the URI alone (scheme, user-info, fragment, query parameter names). */
  public static URI checkUri(String uri) {
    return checkUri(uri, "uri");
  }

  /**
   * Checks another URI an integration persists (e.g. {@code authentication.tokenUri}) as its
   * {@code uri}: persisted settings are readable by every reader, so no URI may carry a secret.
   *
   * @param member the member's name, for the rejection
   */
  public static URI checkUri(String uri, String member) {
    URI parsed;
    try {
      parsed = new URI(uri);
    } catch (URISyntaxException e) {
      throw rejected(member + " (not a valid URI)");
    }
    String scheme = parsed.getScheme() == null ? "" : parsed.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw rejected(member + " scheme (only http and https)");
    }
    if (parsed.getRawUserInfo() != null) {
      throw rejected(member + " user-info");
    }
    if (parsed.getRawFragment() != null) {
      throw rejected(member + " fragment");
    }
    if (parsed.getHost() == null || parsed.getHost().isEmpty()) {
      throw rejected(member + " host (missing)");
    }
    if (parsed.getPort() == 0 || parsed.getPort() > 65535) {
      // java.net.URI takes any digits as a port; stored, it failed only at the first connection
      throw rejected(member + " port " + parsed.getPort() + " (1 to 65535)");
    }
    String query = parsed.getRawQuery();
    if (query != null) {
      for (String pair : query.split("&")) {
        String name = pair.split("=", 2)[0];
        if (isSecretName(normalize(name))) {
          throw rejected(member + " query parameter " + quoted(name) + " (secret-bearing name)");
        }
      }
    }
    return parsed;
  }

  private static boolean isSecretName(String normalized) {
    for (String fragment : SECRET_FRAGMENTS) {
      if (fragment.equals("sig") ? normalized.equals("sig") : normalized.contains(fragment)) {
        return true;
      }
    }
    return false;
  }

  private static String normalize(String key) {
    return key.toLowerCase(Locale.ROOT).replace("-", "").replace("_", "").replace(".", "");
  }

  private static String quoted(String key) {
    // Keys are names, not values; still cap them so a pasted secret used as a key stays short.
    String shown = key.length() > 64 ? key.substring(0, 64) + "..." : key;
    return "'" + shown + "'";
  }

  private static IcegateException rejected(String what) {
    return new IcegateException(ErrorCode.CONNECTION_SETTING_REJECTED, ResourceKind.INTEGRATION,
        what);
  }
}
