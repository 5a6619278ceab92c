package io.icegate.access.storage;

import java.util.Collection;
import java.util.Optional;

/**
 * The one rule for "does a credential issued for a prefix apply to this location", shared by
 * providers (choosing among vended credentials) and callers (choosing which credential opens a
 * file).
 *
 * <p>The comparison is textual: {@code s3://bucket/tab} covers {@code s3://bucket/table1/...}. That
 * is deliberately looser than a path-boundary check because the component that finally uses the
 * credential, Iceberg's {@code S3FileIO} (its storage-credential lookup by longest prefix), matches
 * the same way; a stricter rule here would refuse credentials the reader would happily use, so
 * never be stricter than the reader. Deciding what the gateway authorizes is a different question
 * and uses its own, path-strict rule elsewhere.
 */
public final class StorageLocations {

  private StorageLocations() {}

  /** Whether a credential issued for {@code prefix} applies to {@code location}. */
  public static boolean covers(String prefix, String location) {
    return location.startsWith(prefix);
  }

  /** The longest of {@code prefixes} that covers {@code location}, if any. */
  public static Optional<String> longestCovering(Collection<String> prefixes, String location) {
    String best = null;
    for (String prefix : prefixes) {
      if (covers(prefix, location) && (best == null || prefix.length() > best.length())) {
        best = prefix;
      }
    }
    return Optional.ofNullable(best);
  }
}
