package io.icegate.overlay.generated;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.icegate.access.delta.iceberg.CapturedDeltaState;
import io.icegate.overlay.store.capture.Captures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.util.JsonUtil;

/**
 * What a Delta capture keeps with itself in the store and never serves (issue 26): the captured
 * version's Delta state, which the next capture takes back so that it loads the new version from
 * the commits alone ({@link CapturedDeltaState}), and, when the capture extended the previous one
 * under the same schema and partition spec, its change record ({@link Change}), which validation
 * uses to check only what changed. Stored as the capture's state blob ({@link
 * Captures.Candidate#state}) and named by the capture pointer in the pointer transaction, so it is
 * current exactly while its capture is, for every gateway sharing the store (a restart or another
 * gateway validates incrementally too), and is collected with the capture once superseded.
 *
 * @param deltaState the captured version's Delta state ({@link CapturedDeltaState#toJson}); empty
 *     when not known
 * @param change what the capture changed; empty when validation has to check every file
 */
public record DeltaCaptureRecord(Optional<String> deltaState, Optional<Change> change) {

  /** Data files a change record names at most: a capture adding more is validated in full. */
  public static final int MAX_CHANGE_FILES = 100_000;

  /** Nothing kept (Iceberg captures, Delta captures stored before the record existed). */
  public static final DeltaCaptureRecord NONE =
      new DeltaCaptureRecord(Optional.empty(), Optional.empty());

  public DeltaCaptureRecord {
    Objects.requireNonNull(deltaState, "deltaState");
    Objects.requireNonNull(change, "change");
  }

  /**
   * What one Delta capture changed: it extended capture generation {@code baseGeneration} by
   * adding {@code addedDataFiles} only, under the same schema and partition spec (the capturer's
   * promise: every other file's earlier verdict still holds).
   *
   * @param baseGeneration the capture generation the capture extended
   * @param addedDataFiles the locations of the data files it added (new, or entered again)
   */
  public record Change(long baseGeneration, Set<String> addedDataFiles) {
    public Change {
      addedDataFiles = Set.copyOf(addedDataFiles);
    }

    /** The change, unless it names more than {@value #MAX_CHANGE_FILES} files (then none). */
    public static Optional<Change> bounded(long baseGeneration, Set<String> addedDataFiles) {
      return addedDataFiles.size() > MAX_CHANGE_FILES
          ? Optional.empty()
          : Optional.of(new Change(baseGeneration, addedDataFiles));
    }
  }

  /** The Delta state, parsed; empty when none is kept or it does not parse. */
  public Optional<CapturedDeltaState> parsedDeltaState() {
    return deltaState.flatMap(CapturedDeltaState::parse);
  }

  /**
   * The record kept with {@code capture}; {@link #NONE} when it keeps none or the bytes do not
   * read (then the next capture loads the version in full and validation checks every file: slower,
   * never wrong).
   */
  public static DeltaCaptureRecord of(Captures.Capture capture) {
    if (capture.state() == null) {
      return NONE;
    }
    try {
      JsonNode node = JsonUtil.mapper().readTree(capture.state());
      Optional<String> state = node.hasNonNull("deltaState")
          ? Optional.of(node.get("deltaState").toString())
          : Optional.empty();
      Optional<Change> change = Optional.empty();
      JsonNode c = node.get("change");
      if (c != null && c.isObject() && c.path("baseGeneration").canConvertToLong()) {
        Set<String> added = new LinkedHashSet<>();
        c.path("addedDataFiles").forEach(f -> added.add(f.asText()));
        change = Optional.of(new Change(c.get("baseGeneration").asLong(), added));
      }
      return new DeltaCaptureRecord(state, change);
    } catch (IOException | RuntimeException e) {
      return NONE;
    }
  }

  /** The bytes to store ({@link Captures.Candidate#state}). */
  public byte[] toBytes() {
    try {
      ObjectNode node = JsonUtil.mapper().createObjectNode();
      if (deltaState.isPresent()) {
        node.set("deltaState", JsonUtil.mapper().readTree(deltaState.get()));
      }
      if (change.isPresent()) {
        ObjectNode c = node.putObject("change");
        c.put("baseGeneration", change.get().baseGeneration());
        ArrayNode files = c.putArray("addedDataFiles");
        change.get().addedDataFiles().stream().sorted().forEach(files::add);
      }
      return JsonUtil.mapper().writeValueAsString(node).getBytes(StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("a capture record always serializes", e);
    }
  }
}
