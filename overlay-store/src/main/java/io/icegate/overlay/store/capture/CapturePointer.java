package io.icegate.overlay.store.capture;

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
 */
public record CapturePointer(
    long captureGeneration,
    String upstreamMetadataLocation,
    String digest,
    long size,
    Instant capturedAt) {

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
