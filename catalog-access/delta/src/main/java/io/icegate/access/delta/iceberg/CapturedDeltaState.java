package io.icegate.access.delta.iceberg;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.delta.kernel.internal.actions.Format;
import io.delta.kernel.internal.actions.Metadata;
import io.delta.kernel.internal.actions.Protocol;
import io.delta.kernel.internal.types.DataTypeJsonSerDe;
import io.delta.kernel.internal.util.VectorUtils;
import io.delta.kernel.types.StringType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.TableMetadata;

/**
 * The Delta protocol and metadata of the version a capture shows, kept in the captured Iceberg
 * metadata's table properties. With them and the commits since, the next capture knows the new
 * version's protocol and metadata without Kernel reading them back from the checkpoint (a read of
 * the whole checkpoint file, which grows with the table): Kernel's {@code
 * SnapshotBuilder.withProtocolAndMetadata} then only lists the log. That is what keeps an
 * incremental capture's cost following the change, not the table size.
 *
 * <p>The text is icegate's own small JSON of the fields Kernel's {@link Protocol} and {@link
 * Metadata} hold (protocol: versions and features; metadata: id, name, description, format,
 * schema string, partition columns, creation time, configuration), so it does not depend on Kernel
 * serializing its internal actions.
 */
final class CapturedDeltaState {

  /** Table property: the captured version's Delta protocol. */
  static final String PROTOCOL = "icegate.delta.protocol";

  /** Table property: the captured version's Delta metadata. */
  static final String METADATA = "icegate.delta.metadata";

  private static final ObjectMapper JSON = new ObjectMapper();

  private CapturedDeltaState() {}

  /** A version's protocol and metadata. */
  record State(Protocol protocol, Metadata metadata) {}

  /** The two table properties that record {@code state}. */
  static Map<String, String> properties(State state) {
    Protocol protocol = state.protocol();
    ObjectNode p = JSON.createObjectNode();
    p.put("minReaderVersion", protocol.getMinReaderVersion());
    p.put("minWriterVersion", protocol.getMinWriterVersion());
    protocol.getReaderFeatures().forEach(p.putArray("readerFeatures")::add);
    protocol.getWriterFeatures().forEach(p.putArray("writerFeatures")::add);
    Metadata metadata = state.metadata();
    ObjectNode m = JSON.createObjectNode();
    m.put("id", metadata.getId());
    metadata.getName().ifPresent(n -> m.put("name", n));
    metadata.getDescription().ifPresent(d -> m.put("description", d));
    m.put("provider", metadata.getFormat().getProvider());
    metadata.getFormat().getOptions().forEach(m.putObject("options")::put);
    m.put("schemaString", metadata.getSchemaString());
    List<String> partitionColumns = VectorUtils.toJavaList(metadata.getPartitionColumns());
    partitionColumns.forEach(m.putArray("partitionColumns")::add);
    metadata.getCreatedTime().ifPresent(t -> m.put("createdTime", t));
    ObjectNode configuration = m.putObject("configuration");
    metadata.getConfiguration().forEach(configuration::put);
    return Map.of(PROTOCOL, p.toString(), METADATA, m.toString());
  }

  /**
   * The state a previous capture recorded; empty when it recorded none (captured before it was
   * kept) or the text does not parse: the caller then has Kernel load the version in full.
   */
  static Optional<State> read(TableMetadata previous) {
    if (previous == null) {
      return Optional.empty();
    }
    String protocolText = previous.property(PROTOCOL, null);
    String metadataText = previous.property(METADATA, null);
    if (protocolText == null || metadataText == null) {
      return Optional.empty();
    }
    try {
      JsonNode p = JSON.readTree(protocolText);
      Protocol protocol =
          new Protocol(
              p.path("minReaderVersion").asInt(),
              p.path("minWriterVersion").asInt(),
              strings(p.path("readerFeatures")),
              strings(p.path("writerFeatures")));
      JsonNode m = JSON.readTree(metadataText);
      String schemaString = m.path("schemaString").asText();
      Metadata metadata =
          new Metadata(
              m.path("id").asText(),
              text(m, "name"),
              text(m, "description"),
              new Format(m.path("provider").asText("parquet"), map(m.path("options"))),
              schemaString,
              DataTypeJsonSerDe.deserializeStructType(schemaString),
              VectorUtils.buildArrayValue(
                  new ArrayList<>(strings(m.path("partitionColumns"))), StringType.STRING),
              m.has("createdTime") ? Optional.of(m.path("createdTime").asLong()) : Optional.empty(),
              VectorUtils.stringStringMapValue(map(m.path("configuration"))));
      return Optional.of(new State(protocol, metadata));
    } catch (JsonProcessingException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static Optional<String> text(JsonNode node, String field) {
    return node.hasNonNull(field) ? Optional.of(node.get(field).asText()) : Optional.empty();
  }

  private static Set<String> strings(JsonNode array) {
    Set<String> out = new LinkedHashSet<>();
    array.forEach(v -> out.add(v.asText()));
    return out;
  }

  private static Map<String, String> map(JsonNode object) {
    Map<String, String> out = new LinkedHashMap<>();
    object.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
    return out;
  }
}
