package io.icegate.access.delta.iceberg;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;

/**
 * Gives a captured snapshot the time of its Delta commit. Iceberg's snapshot producers stamp the
 * wall clock and offer no way to set a snapshot's time, so the one new snapshot's {@code
 * timestamp-ms} (and its snapshot-log entry and the metadata's {@code last-updated-ms}) are
 * rewritten in the metadata's JSON form ({@link MetadataJson}).
 * Time travel by timestamp needs snapshot times in snapshot order, and Delta commit times can go
 * backwards (clock skew between writers): a time before the parent snapshot's is raised to it.
 */
final class CaptureTimestamps {

  private CaptureTimestamps() {}

  static TableMetadata settle(TableMetadata metadata, long snapshotId, long commitMillis) {
    Snapshot snapshot = metadata.snapshot(snapshotId);
    long millis = commitMillis;
    if (snapshot.parentId() != null) {
      millis = Math.max(millis, metadata.snapshot(snapshot.parentId()).timestampMillis());
    }
    long stamped = millis;
    return MetadataJson.edit(
        metadata,
        json -> {
          for (JsonNode s : json.path("snapshots")) {
            if (s.path("snapshot-id").asLong() == snapshotId) {
              ((ObjectNode) s).put("timestamp-ms", stamped);
            }
          }
          for (JsonNode entry : json.path("snapshot-log")) {
            if (entry.path("snapshot-id").asLong() == snapshotId) {
              ((ObjectNode) entry).put("timestamp-ms", stamped);
            }
          }
          json.put("last-updated-ms", stamped);
        });
  }
}
