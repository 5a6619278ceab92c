package io.icegate.access.delta.iceberg;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;

/**
 * Gives a captured snapshot the time of its Delta commit. Iceberg's snapshot producers stamp the
 * wall clock and offer no way to set a snapshot's time, so the one new snapshot's {@code
 * timestamp-ms} (and its snapshot-log entry and the metadata's {@code last-updated-ms}) are
 * rewritten in the metadata's JSON form and parsed back, which re-runs Iceberg's own validation.
 * Time travel by timestamp needs snapshot times in snapshot order, and Delta commit times can go
 * backwards (clock skew between writers): a time before the parent snapshot's is raised to it.
 */
final class CaptureTimestamps {

  private static final ObjectMapper JSON = new ObjectMapper();

  private CaptureTimestamps() {}

  static TableMetadata settle(TableMetadata metadata, long snapshotId, long commitMillis) {
    Snapshot snapshot = metadata.snapshot(snapshotId);
    long millis = commitMillis;
    if (snapshot.parentId() != null) {
      millis = Math.max(millis, metadata.snapshot(snapshot.parentId()).timestampMillis());
    }
    try {
      ObjectNode json = (ObjectNode) JSON.readTree(TableMetadataParser.toJson(metadata));
      for (JsonNode s : json.path("snapshots")) {
        if (s.path("snapshot-id").asLong() == snapshotId) {
          ((ObjectNode) s).put("timestamp-ms", millis);
        }
      }
      for (JsonNode entry : json.path("snapshot-log")) {
        if (entry.path("snapshot-id").asLong() == snapshotId) {
          ((ObjectNode) entry).put("timestamp-ms", millis);
        }
      }
      json.put("last-updated-ms", millis);
      return TableMetadataParser.fromJson(json.toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
