package io.icegate.access.delta.iceberg;

import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.iceberg.TableMetadata;

/**
 * Snapshot ids of captured Delta versions. An id derives from the table identity and the Delta
 * version, so capturing a version again gives it the id it had (a reader's snapshot id keeps
 * naming the same rows). Delta versions restart when a table is written anew at its path, and a
 * rolled-back log is written on under versions captured before: there the same version is other
 * rows, so the captured history starts over ({@link CaptureBase} drops the snapshots) and the ids
 * take the count of such restarts as well, kept in the table property {@link #DELTA_HISTORY}. A
 * client holding an id of the dropped history then gets "snapshot not found", never another
 * table's rows under it.
 */
final class SnapshotIds {

  /**
   * Table property: how many times the captured history of this Iceberg table started over
   * because Delta versions were reused; absent for none.
   */
  static final String DELTA_HISTORY = "icegate.delta.history";

  private SnapshotIds() {}

  /** The snapshot id of a table's Delta version in its first history: stable, positive. */
  static long of(String tableIdentity, long version) {
    return of(tableIdentity, version, 0);
  }

  /** The snapshot id of a table's Delta version in the given history. */
  static long of(String tableIdentity, long version, int history) {
    // history 0 keeps the ids captures made before histories were counted
    String name = tableIdentity + "@" + version + (history == 0 ? "" : "#" + history);
    long id =
        UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)).getMostSignificantBits()
            & Long.MAX_VALUE;
    return id == 0 ? 1 : id;
  }

  /** The snapshot id the version takes on top of {@code metadata} (its history). */
  static long of(String tableIdentity, long version, TableMetadata metadata) {
    return of(tableIdentity, version, history(metadata));
  }

  /** The history {@code metadata} is in: 0 without the property (or without metadata). */
  static int history(TableMetadata metadata) {
    String value = metadata == null ? null : metadata.property(DELTA_HISTORY, null);
    if (value == null) {
      return 0;
    }
    try {
      return Math.max(0, Integer.parseInt(value));
    } catch (NumberFormatException e) {
      return 0; // not ours: icegate writes only digits here
    }
  }

  /**
   * Whether the previous capture holds the version's snapshot id already: the table was rolled
   * back and written on, or an older version is asked for again.
   */
  static boolean taken(TableMetadata previous, String tableIdentity, long version) {
    return previous != null && previous.snapshot(of(tableIdentity, version, previous)) != null;
  }
}
