package io.icegate.access.connection;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Decides whether a property, header or query-parameter name may carry secret material, and so must
 * not appear in persistable configuration (seed 001 "Connection boundary").
 *
 * <p>The test is by name fragment rather than by a fixed list because upstream libraries keep
 * adding secret-bearing keys ({@code rest.session-token}, {@code s3.secret-access-key}, {@code
 * header.Authorization}); an unknown name that looks secret is refused, and the few ordinary
 * settings that merely contain a fragment are named as exceptions.
 */
public final class SecretBearingNames {

  private static final List<String> SECRET_FRAGMENTS =
      List.of(
          "secret",
          "password",
          "passwd",
          "token",
          "credential",
          "access-key",
          "access_key",
          "accesskey",
          "key-id",
          "keyid",
          "session",
          "api-key",
          "api_key",
          "apikey",
          "private-key",
          "authorization",
          "cookie",
          "signature",
          "x-amz-security",
          "sas",
          "sig");

  /** Ordinary settings that contain a fragment above but carry no secret. */
  private static final Set<String> NOT_SECRET =
      Set.of(
          "token-expires-in-ms",
          "token-refresh-enabled",
          "token-exchange-enabled",
          "rest.signing-name",
          "rest.signing-region",
          "signing-name",
          "signing-region",
          "rest.sigv4-enabled");

  /**
   * Names of Iceberg/AWS hooks that load a credential provider by class name: a handle to live
   * credentials, so also refused in persistable configuration.
   */
  private static final List<String> PROVIDER_HANDLE_FRAGMENTS =
      List.of(
          "credentials-provider", "credential-provider", "credentials.provider", "registration");

  private SecretBearingNames() {}

  /** True when {@code name} (compared case-insensitively) may carry a secret value. */
  public static boolean isSecretBearing(String name) {
    String lower = name.toLowerCase(Locale.ROOT).trim();
    if (NOT_SECRET.contains(lower)) {
      return false;
    }
    for (String fragment : SECRET_FRAGMENTS) {
      if (fragment.length() <= 3 ? hasWholeToken(lower, fragment) : lower.contains(fragment)) {
        return true;
      }
    }
    return false;
  }

  /** True when {@code name} configures a credential provider or a renewable registration. */
  public static boolean isCredentialProviderHandle(String name) {
    String lower = name.toLowerCase(Locale.ROOT).trim();
    return PROVIDER_HANDLE_FRAGMENTS.stream().anyMatch(lower::contains);
  }

  /**
   * Short fragments ({@code sig}, {@code sas}) only count as whole tokens, so that {@code design}
   * or {@code sasl-mechanism} style names are not refused while {@code sig} and {@code x-sig} are.
   */
  private static boolean hasWholeToken(String name, String fragment) {
    for (String token : name.split("[^a-z0-9]+")) {
      if (token.equals(fragment)) {
        return true;
      }
    }
    return false;
  }
}
