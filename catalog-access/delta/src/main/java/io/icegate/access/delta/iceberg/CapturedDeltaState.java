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
 * The Delta protocol and metadata of the version a capture shows: what the next capture of the
 * same table needs to load the new version without Kernel reading them back from the checkpoint
 * (a read of the whole checkpoint file, which grows with the table). With them and the commits
 * since, Kernel's {@code SnapshotBuilder.withProtocolAndMetadata} only lists the log. That is what
 * keeps an incremental capture's cost following the change, not the table size.
 *
 * <p>Not part of the Iceberg metadata: a capture returns it beside the metadata ({@link
 * DeltaVersionCapture.Captured#deltaState}) and takes the previous one as an input; the caller
 * stores it with the capture ({@link #toJson}, {@link #parse}). Captures made before it moved out
 * of the metadata kept it in two table properties ({@link #LEGACY_PROPERTIES}), which every
 * client saw: {@link #fromLegacyProperties} reads them once, and a capture never writes them.
 *
 * <p>The text is icegate's own small JSON of the fields Kernel's {@link Protocol} and {@link
 * Metadata} hold (protocol: versions and features; metadata: id, name, description, format,
 * schema string, partition columns, creation time, configuration), so it does not depend on Kernel
 * serializing its internal actions, and the captured version's commit file as the store stated it
 * ({@link CommitStamp}): how the next capture tells that the log is still the one captured.
 */
public final class CapturedDeltaState {

  /** Table property of captures made before the state left the metadata: the protocol. */
  static final String LEGACY_PROTOCOL = "icegate.delta.protocol";

  /** Table property of captures made before the state left the metadata: the metadata. */
  static final String LEGACY_METADATA = "icegate.delta.metadata";

  /**
   * The two table properties in which captures made before the state left the metadata kept it;
   * a capture drops them, and whoever serves an older capture should too.
   */
  public static final Set<String> LEGACY_PROPERTIES = Set.of(LEGACY_PROTOCOL, LEGACY_METADATA);

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Protocol protocol;
  private final Metadata metadata;
  private final Optional<CommitStamp> commit;

  CapturedDeltaState(Protocol protocol, Metadata metadata) {
    this(protocol, metadata, Optional.empty());
  }

  CapturedDeltaState(Protocol protocol, Metadata metadata, Optional<CommitStamp> commit) {
    this.protocol = protocol;
    this.metadata = metadata;
    this.commit = commit;
  }

  /** This state with the captured version's commit file as the store stated it. */
  CapturedDeltaState withCommit(Optional<CommitStamp> stamp) {
    return new CapturedDeltaState(protocol, metadata, stamp);
  }

  /**
   * The captured version's commit file as the store stated it when the capture read the log;
   * empty for a state recorded before icegate kept it (or when the file could not be stated): then
   * the next capture cannot tell that the log is still this table's and loads the version in full.
   */
  /**
   * The identity of the captured version's commit file: the Delta table id, the file's size and
   * second (see {@link CommitStamp}); empty when the file was not stamped. Equal for the same
   * commit file however it was stated (a listing, a HEAD), different for a table written anew at
   * the path, so a reconcile can skip a table whose capture already shows the file the log's head
   * names ({@link io.icegate.access.delta.log.DeltaLog.Head#commitIdentity}).
   */
  public Optional<String> commitIdentity() {
    return commit().map(stamp -> stamp.identity(metadata().getId()));
  }

  Optional<CommitStamp> commit() {
    return commit;
  }

  Protocol protocol() {
    return protocol;
  }

  Metadata metadata() {
    return metadata;
  }

  /** The state as text ({@code {"protocol": {...}, "metadata": {...}}}), for {@link #parse}. */
  public String toJson() {
    ObjectNode state = JSON.createObjectNode();
    state.set("protocol", protocolJson());
    state.set("metadata", metadataJson());
    commit.ifPresent(c -> state.set("commit", c.toJson(JSON)));
    return state.toString();
  }

  /**
   * The state {@link #toJson} wrote; empty when the text does not parse: the caller then has the
   * capture load the version in full.
   */
  public static Optional<CapturedDeltaState> parse(String json) {
    try {
      JsonNode state = JSON.readTree(json);
      return read(state.path("protocol"), state.path("metadata"))
          .map(s -> s.withCommit(CommitStamp.fromJson(state.path("commit"))));
    } catch (JsonProcessingException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * The state a capture made before it left the metadata recorded in {@code previous}'s table
   * properties; empty when there are none (or they do not parse).
   */
  public static Optional<CapturedDeltaState> fromLegacyProperties(TableMetadata previous) {
    if (previous == null) {
      return Optional.empty();
    }
    String protocolText = previous.property(LEGACY_PROTOCOL, null);
    String metadataText = previous.property(LEGACY_METADATA, null);
    if (protocolText == null || metadataText == null) {
      return Optional.empty();
    }
    try {
      return read(JSON.readTree(protocolText), JSON.readTree(metadataText));
    } catch (JsonProcessingException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private ObjectNode protocolJson() {
    ObjectNode p = JSON.createObjectNode();
    p.put("minReaderVersion", protocol.getMinReaderVersion());
    p.put("minWriterVersion", protocol.getMinWriterVersion());
    protocol.getReaderFeatures().forEach(p.putArray("readerFeatures")::add);
    protocol.getWriterFeatures().forEach(p.putArray("writerFeatures")::add);
    return p;
  }

  private ObjectNode metadataJson() {
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
    return m;
  }

  private static Optional<CapturedDeltaState> read(JsonNode p, JsonNode m) {
    if (!p.isObject() || !m.isObject()) {
      return Optional.empty();
    }
    Protocol protocol =
        new Protocol(
            p.path("minReaderVersion").asInt(),
            p.path("minWriterVersion").asInt(),
            strings(p.path("readerFeatures")),
            strings(p.path("writerFeatures")));
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
    return Optional.of(new CapturedDeltaState(protocol, metadata));
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
