package io.icegate.access.delta.iceberg;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.delta.kernel.utils.FileStatus;
import java.util.Optional;

/**
 * A captured version's commit file as the store stated it: its size and modification time, to the
 * second. An incremental capture applies the commits after that version to the previous capture;
 * that is right only while the log is the one captured. A table written anew at the same path (the
 * directory deleted, a new table created there) has commit files of the same names, and a
 * {@code v + 1} of a new table applied to the old table's files would serve wrong rows. Delta
 * commit files are created once and never rewritten, so a different size or time means another
 * file: the capture then loads the version in full ({@link DeltaVersionCapture}).
 *
 * <p>Seconds, because an object store states a HEAD's or GET's time to the second and a listing's
 * to the millisecond. What this cannot tell apart: a new table whose commit file of that version
 * has the same size and was written in the same second as the captured one.
 *
 * @param version the captured version
 * @param size its commit file's size in bytes
 * @param modifiedSecond its commit file's modification time, in seconds since the epoch
 */
record CommitStamp(long version, long size, long modifiedSecond) {

  /** The stamp of {@code version}'s commit file as {@code file} states it. */
  static CommitStamp of(long version, FileStatus file) {
    return new CommitStamp(version, file.getSize(), Math.floorDiv(file.getModificationTime(), 1000));
  }

  /**
   * The identity of the stamped commit file of the Delta table {@code tableId} ({@code
   * metaData.id}): what a reader compares to tell "the version captured" from "another file under
   * the same name" without reading the capture ({@link CapturedDeltaState#commitIdentity}).
   */
  String identity(String tableId) {
    return tableId + "/" + size + "/" + modifiedSecond;
  }

  /** Whether {@code file} is the commit file this stamp was taken of. */
  boolean matches(FileStatus file) {
    return file.getSize() == size && Math.floorDiv(file.getModificationTime(), 1000) == modifiedSecond;
  }

  ObjectNode toJson(ObjectMapper json) {
    ObjectNode node = json.createObjectNode();
    node.put("version", version);
    node.put("size", size);
    node.put("modifiedSecond", modifiedSecond);
    return node;
  }

  /** The stamp {@link #toJson} wrote; empty when there is none or it does not parse. */
  static Optional<CommitStamp> fromJson(JsonNode node) {
    if (!node.isObject()
        || !node.path("version").canConvertToLong()
        || !node.path("size").canConvertToLong()
        || !node.path("modifiedSecond").canConvertToLong()) {
      return Optional.empty();
    }
    return Optional.of(
        new CommitStamp(
            node.path("version").asLong(),
            node.path("size").asLong(),
            node.path("modifiedSecond").asLong()));
  }
}
