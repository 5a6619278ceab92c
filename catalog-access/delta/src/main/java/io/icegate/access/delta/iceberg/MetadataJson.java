package io.icegate.access.delta.iceberg;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Consumer;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;

/**
 * Edits table metadata in its JSON form, for the few things iceberg-core's builder cannot set
 * (a snapshot's time, a partition field's name). Parsing the result back re-runs Iceberg's own
 * validation, so an edit cannot produce metadata Iceberg would refuse to read.
 */
final class MetadataJson {

  private static final ObjectMapper JSON = new ObjectMapper();

  private MetadataJson() {}

  static TableMetadata edit(TableMetadata metadata, Consumer<ObjectNode> change) {
    try {
      ObjectNode json = (ObjectNode) JSON.readTree(TableMetadataParser.toJson(metadata));
      change.accept(json);
      return TableMetadataParser.fromJson(json.toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
