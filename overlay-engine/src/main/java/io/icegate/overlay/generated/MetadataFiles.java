package io.icegate.overlay.generated;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.icegate.access.delta.iceberg.CapturedDeltaState;
import io.icegate.overlay.store.capture.Captures;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Locale;
import java.util.UUID;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.util.JsonUtil;

/**
 * The Iceberg metadata file of a captured Delta version (issue 26): the upstream has none, so
 * icegate writes one, immutable, under the Table's generated prefix ({@code
 * <generated>/metadata/<nnnnn>-<uuid>.metadata.json}, Iceberg's own naming), and the capture's
 * blob holds exactly the same bytes. The gateway serves that file's location as the
 * metadata-location of load-table, so a client reading the file with iceberg-core gets what
 * load-table answered.
 */
public final class MetadataFiles {
  /** Below a Table's generated prefix: its metadata files. */
  public static final String DIRECTORY = "metadata/";

  /**
   * A metadata file written.
   *
   * @param location the file's location
   * @param json its bytes (also the capture's blob)
   */
  public record Written(String location, byte[] json) {}

  private MetadataFiles() {}

  /**
   * Writes {@code metadata}, stamped with the capture time as table property {@value
   * Captures#CAPTURED_AT_PROPERTY}, as a new metadata file of version {@code version} (the capture
   * generation it is meant for) under {@code generatedLocation}. A fresh UUID in the name keeps
   * two writers of one version apart (so it is written without an existence check); a file never
   * published is left to collection.
   *
   * @throws UncheckedIOException when the file cannot be written
   */
  public static Written write(TableMetadata metadata, String generatedLocation, long version,
      Instant capturedAt, FileIO io) {
    String location = generatedLocation + "/" + DIRECTORY
        + String.format(Locale.ROOT, "%05d-%s.metadata.json", version, UUID.randomUUID());
    byte[] json = stamped(metadata, capturedAt);
    // createOrOverwrite, as iceberg-core writes its own UUID-named metadata files: create() asks
    // the store first (a HEAD on S3, one more round trip per capture) about a name nobody else
    // can have chosen
    try (OutputStream out = io.newOutputFile(location).createOrOverwrite()) {
      out.write(json);
    } catch (IOException e) {
      throw new UncheckedIOException("metadata file " + location + " could not be written", e);
    }
    return new Written(location, json);
  }

  /**
   * The metadata's JSON with the capture time as a property, edited as JSON: Iceberg's builder
   * would add a metadata-log entry and restamp the last-updated time.
   */
  private static byte[] stamped(TableMetadata metadata, Instant capturedAt) {
    try {
      JsonNode node = JsonUtil.mapper().readTree(TableMetadataParser.toJson(metadata));
      JsonNode properties = node.get("properties");
      ObjectNode edited = properties instanceof ObjectNode object
          ? object
          : ((ObjectNode) node).putObject("properties");
      edited.put(Captures.CAPTURED_AT_PROPERTY, capturedAt.toString());
      // the capture's own Delta state is kept beside the metadata, never in a file clients read
      // (a capture refused on top of one stored before it moved out still carried it)
      edited.remove(CapturedDeltaState.LEGACY_PROPERTIES);
      return JsonUtil.mapper().writeValueAsString(node).getBytes(StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("metadata JSON that Iceberg wrote does not read back", e);
    }
  }
}
