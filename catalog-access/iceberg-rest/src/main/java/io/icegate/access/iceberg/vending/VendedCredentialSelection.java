package io.icegate.access.iceberg.vending;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.storage.StorageLocations;
import io.icegate.access.storage.VendedStorageCredentials;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Picks the storage credential to return for a table from what a load-table response vended (seed
 * 001 "Iceberg REST slice", seed 000 "Vended storage credentials").
 *
 * <ol>
 *   <li>Nothing vended: empty, meaning "this catalog does not vend". Nothing else is consulted: not
 *       the response {@code config}, not FileIO properties, not catalog tokens or ambient keys,
 *       because none of them can be told apart from the client's own configuration.
 *   <li>Only {@link #S3_ALLOWLIST} is copied from an entry; entries without any of those keys are
 *       not S3 credentials and are ignored.
 *   <li>Among entries whose prefix covers the table location ({@link StorageLocations}, textual
 *       like S3FileIO), only complete renewable sessions compete: key id, secret, session token and
 *       a parseable expiry. The longest prefix wins, so a longer-prefix entry missing its session
 *       token loses to a shorter complete one.
 *   <li>No entry covers the location: {@code CREDENTIAL_SCOPE_INVALID}. Covering entries exist but
 *       none is a complete session (a bare key pair, a missing key, an unparseable expiry): {@code
 *       INVALID_CONFIGURATION}, since icegate does not narrow keys with STS and will not hand out
 *       long-lived ones. The winner already expired: {@code CREDENTIAL_EXPIRED}.
 * </ol>
 */
public final class VendedCredentialSelection {

  /** One {@code storage-credentials} entry as received. */
  public record Offered(String prefix, Map<String, String> config) {}

  /** The only keys copied out of a vended entry. */
  public static final List<String> S3_ALLOWLIST =
      List.of(
          VendedStorageCredentials.S3_ACCESS_KEY_ID,
          VendedStorageCredentials.S3_SECRET_ACCESS_KEY,
          VendedStorageCredentials.S3_SESSION_TOKEN,
          VendedStorageCredentials.S3_SESSION_TOKEN_EXPIRES_AT_MS);

  private VendedCredentialSelection() {}

  /**
   * @param offered the response's storage credentials, in response order
   * @param location the table location the credentials must cover
   * @param now the time against which expiry is judged
   */
  public static Optional<VendedStorageCredentials> select(
      List<Offered> offered, String location, Instant now) {
    List<Offered> s3 = new ArrayList<>();
    for (Offered entry : offered) {
      if (entry.config() != null && S3_ALLOWLIST.stream().anyMatch(entry.config()::containsKey)) {
        s3.add(entry);
      }
    }
    if (s3.isEmpty()) {
      return Optional.empty();
    }
    VendedStorageCredentials best = null;
    String firstProblem = null;
    boolean anyCovering = false;
    for (Offered entry : s3) {
      String prefix = entry.prefix() == null ? "" : entry.prefix();
      if (!StorageLocations.covers(prefix, location)) {
        continue;
      }
      anyCovering = true;
      String problem = incompleteness(entry.config());
      if (problem != null) {
        firstProblem =
            firstProblem == null ? "credential for prefix " + prefix + " " + problem : firstProblem;
        continue;
      }
      if (best == null || prefix.length() > best.prefix().length()) {
        best = toCredentials(prefix, entry.config());
      }
    }
    if (!anyCovering) {
      throw new CatalogAccessException(
          Code.CREDENTIAL_SCOPE_INVALID,
          "the catalog vended "
              + s3.size()
              + " S3 credential(s), none covering table location "
              + location);
    }
    if (best == null) {
      throw new CatalogAccessException(Code.INVALID_CONFIGURATION, firstProblem);
    }
    if (!now.isBefore(best.expiresAt())) {
      throw new CatalogAccessException(
          Code.CREDENTIAL_EXPIRED,
          "the vended credential for prefix " + best.prefix() + " expired at " + best.expiresAt());
    }
    return Optional.of(best);
  }

  /** Why an entry is not a complete renewable session, or {@code null} when it is. */
  private static String incompleteness(Map<String, String> config) {
    boolean key = present(config, VendedStorageCredentials.S3_ACCESS_KEY_ID);
    boolean secret = present(config, VendedStorageCredentials.S3_SECRET_ACCESS_KEY);
    boolean token = present(config, VendedStorageCredentials.S3_SESSION_TOKEN);
    if (!key || !secret) {
      return "is incomplete: it lacks an access key id or secret access key";
    }
    if (!token) {
      return "is a bare key pair, not a renewable session (no session token)";
    }
    String expiry = config.get(VendedStorageCredentials.S3_SESSION_TOKEN_EXPIRES_AT_MS);
    if (expiry == null || expiry.isBlank()) {
      return "has no expiry (" + VendedStorageCredentials.S3_SESSION_TOKEN_EXPIRES_AT_MS + ")";
    }
    try {
      if (Long.parseLong(expiry.trim()) <= 0) {
        return "has a non-positive expiry";
      }
    } catch (NumberFormatException e) {
      return "has an expiry that does not parse as epoch milliseconds";
    }
    return null;
  }

  private static boolean present(Map<String, String> config, String key) {
    String value = config.get(key);
    return value != null && !value.isEmpty();
  }

  private static VendedStorageCredentials toCredentials(String prefix, Map<String, String> config) {
    Map<String, String> copied = new LinkedHashMap<>();
    for (String key : S3_ALLOWLIST) {
      copied.put(key, config.get(key));
    }
    Instant expiresAt =
        Instant.ofEpochMilli(
            Long.parseLong(
                config.get(VendedStorageCredentials.S3_SESSION_TOKEN_EXPIRES_AT_MS).trim()));
    return new VendedStorageCredentials(prefix, copied, expiresAt);
  }
}
