package io.icegate.overlay.store.capture;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.icegate.core.model.ModelJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Objects;

/**
 * The capture pointer of one managed Table ({@link io.icegate.core.store.KeySubspace#CAPTURES}):
 * which captured Iceberg metadata the Table currently has.
 *
 * @param captureGeneration 1 for the Table's first capture, +1 for each later one; a publication
 *     asserts the generation it read, so two captures never interleave
 * @param upstreamMetadataLocation the upstream metadata file the capture was read from
 * @param digest lowercase hex SHA-256 of the captured metadata JSON: the blob's name in {@link
 *     io.icegate.core.store.KeySubspace#BLOBS}
 * @param size the captured metadata JSON's length in bytes
 * @param capturedAt when the pointer was published
 * @param metadataFile the Iceberg metadata file icegate wrote with the same bytes as the blob
 *     (Delta captures, issue 26: the upstream has no Iceberg metadata file, so the served
 *     metadata location is this one), or {@code null} when the upstream metadata location is
 *     itself the Iceberg metadata file (Iceberg captures)
 * @param state the blob of what the capturer keeps with this capture and never serves ({@link
 *     Captures.Candidate#state}: for Delta captures, the captured version's Delta state for the
 *     next capture and what the capture changed for validation), or {@code null} when it keeps
 *     nothing (Iceberg captures, and Delta captures stored before it existed)
 * @param historySinceMillis the time (epoch milliseconds) of the oldest history the capture
 *     keeps besides its current snapshot (earlier snapshots and metadata-log entries of a Delta
 *     capture, issue 28's retention), or {@code null} when it keeps none or it is not known
 *     (Iceberg captures, Delta captures stored before it was recorded): tells a change-free round
 *     whether the retention expired some of it without reading the capture
 * @param upstreamCommit the identity of the upstream file the capture shows, where the location
 *     alone does not tell it (a Delta commit file: a table written anew at its path reuses its
 *     names; the Delta table id, size and second), so a change-free round skips the Table only
 *     while the upstream states this one; {@code null} when not known (Iceberg captures, whose
 *     metadata files are never rewritten, and pointers stored before it was recorded)
 */
public record CapturePointer(
    long captureGeneration,
    String upstreamMetadataLocation,
    String digest,
    long size,
    Instant capturedAt,
    @JsonInclude(JsonInclude.Include.NON_NULL) String metadataFile,
    @JsonInclude(JsonInclude.Include.NON_NULL) StateBlob state,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long historySinceMillis,
    @JsonInclude(JsonInclude.Include.NON_NULL) String upstreamCommit) {

  /**
   * A capture's state blob in {@link io.icegate.core.store.KeySubspace#BLOBS}.
   *
   * @param digest lowercase hex SHA-256 of the state bytes: the blob's name
   * @param size their length in bytes
   */
  public record StateBlob(String digest, long size) {
    public StateBlob {
      if (digest == null || !digest.matches("[0-9a-f]{64}")) {
        throw new IllegalArgumentException("digest must be a SHA-256 hex digest");
      }
      if (size < 0) {
        throw new IllegalArgumentException("size must not be negative");
      }
    }
  }

  public CapturePointer {
    if (captureGeneration < 1) {
      throw new IllegalArgumentException("capture generation must be at least 1");
    }
    Objects.requireNonNull(upstreamMetadataLocation, "upstreamMetadataLocation");
    if (digest == null || !digest.matches("[0-9a-f]{64}")) {
      throw new IllegalArgumentException("digest must be a SHA-256 hex digest");
    }
    if (size < 0) {
      throw new IllegalArgumentException("size must not be negative");
    }
    Objects.requireNonNull(capturedAt, "capturedAt");
  }

  /** A pointer to a capture of an upstream Iceberg metadata file (no file of icegate's). */
  public CapturePointer(long captureGeneration, String upstreamMetadataLocation, String digest,
      long size, Instant capturedAt) {
    this(captureGeneration, upstreamMetadataLocation, digest, size, capturedAt, null, null,
        null, null);
  }

  /** A pointer naming the metadata file icegate wrote, with no state and no known history. */
  public CapturePointer(long captureGeneration, String upstreamMetadataLocation, String digest,
      long size, Instant capturedAt, String metadataFile) {
    this(captureGeneration, upstreamMetadataLocation, digest, size, capturedAt, metadataFile,
        null, null, null);
  }

  /** This pointer stating {@code commit} as the identity of the upstream file it shows. */
  public CapturePointer withUpstreamCommit(String commit) {
    return new CapturePointer(captureGeneration, upstreamMetadataLocation, digest, size,
        capturedAt, metadataFile, state, historySinceMillis, commit);
  }

  /** The digests of the blobs this pointer names: its metadata's and its state's, if any. */
  public java.util.List<String> blobDigests() {
    return state == null ? java.util.List.of(digest) : java.util.List.of(digest, state.digest());
  }

  /** The Iceberg metadata file a client may read this capture from (served metadata location). */
  public String servedMetadataLocation() {
    return metadataFile != null ? metadataFile : upstreamMetadataLocation;
  }

  byte[] toJson() {
    try {
      return ModelJson.mapper().writeValueAsBytes(this);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a capture pointer always serializes", e);
    }
  }

  static CapturePointer fromJson(byte[] json) {
    try {
      return ModelJson.mapper().readValue(json, CapturePointer.class);
    } catch (IOException e) {
      throw new UncheckedIOException("unreadable capture pointer", e);
    }
  }
}
