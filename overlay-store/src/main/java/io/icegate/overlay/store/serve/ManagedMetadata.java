package io.icegate.overlay.store.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.Table;
import io.icegate.core.model.View;
import io.icegate.core.store.ReadTransaction;
import io.icegate.overlay.store.capture.Blobs;
import io.icegate.overlay.store.capture.CapturePointer;
import io.icegate.overlay.store.capture.Captures;
import io.icegate.overlay.store.relation.ManagedRelations;
import io.icegate.overlay.store.relation.TableDefinition;
import io.icegate.overlay.store.relation.ViewDefinition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.util.JsonUtil;
import org.apache.iceberg.view.ViewMetadata;

/**
 * The Iceberg metadata a managed (overlay-materialized) Table or View is served as, decoded from
 * what was stored (definition or capture), never from an upstream catalog and never from a
 * metadata file (seed 000, "Catalog overlay"). With {@link TableSource}, the read API the gateway
 * serves managed relations through; it knows nothing of caches or HTTP.
 *
 * <p>A managed Table with a capture is served from its captured upstream metadata (snapshots,
 * refs, schemas, specs, sort orders, snapshot log, the upstream UUID and field ids), keyed by
 * {@link #capturedLocation}; one not captured yet is served from its definition, without snapshots
 * and without a metadata location. A managed View is served completely from its definition. A
 * definition is keyed by {@link #servedLocation}, which changes with its digest, so caches and
 * ETags follow republication and recapture.
 */
public final class ManagedMetadata {
  private static final ManagedRelations MANAGED = new ManagedRelations();

  /**
   * Table properties in which Delta captures stored before issue 26 moved the capture's own Delta
   * state out of the metadata kept it (the delta toolkit's {@code
   * CapturedDeltaState.LEGACY_PROPERTIES}; this module does not depend on it): never served. The
   * next capture of such a table drops them from its metadata and metadata file too.
   */
  static final List<String> LEGACY_DELTA_STATE =
      List.of("icegate.delta.protocol", "icegate.delta.metadata");

  private ManagedMetadata() {}

  /**
   * A string standing for a managed relation's served metadata where Iceberg expects a metadata
   * location: {@code icegate:managed/<relation id>/<definition digest>}. It names no file. The
   * last segment is the hex digest, so Iceberg's version parsing of locations finds no version
   * instead of logging a warning.
   */
  static String servedLocation(String relationId, String definitionDigest) {
    return "icegate:managed/" + relationId + "/" + definitionDigest;
  }

  /**
   * The key of a managed table's capture: {@code icegate:managed/<table id>/<capture
   * generation>-<digest>}. It names no file; Iceberg's version parsing of locations reads the
   * capture generation as the version.
   */
  static String capturedLocation(String tableId, long captureGeneration, String digest) {
    return "icegate:managed/" + tableId + "/" + captureGeneration + "-" + digest;
  }

  /**
   * The table metadata served for managed table {@code source}, read in {@code tx} (the
   * transaction {@code source} was read in, so record, pointer and bytes agree).
   *
   * <p>A capture is served as captured, with the upstream metadata location as its metadata
   * location and the capture time added as table property {@value Captures#CAPTURED_AT_PROPERTY};
   * it is edited as JSON before parsing, not through Iceberg's builder, whose {@code build()}
   * would append a metadata-log entry and restamp the last-updated time. A capture with a
   * metadata file of icegate's ({@link CapturePointer#metadataFile}: Delta captures) is served
   * exactly as that file reads, at that location (its writer put the capture time in it). A
   * definition is served
   * without snapshots and without a metadata file location.
   *
   * @param displayName the table's name as the caller knows it, for the not-found message
   * @throws NoSuchTableException when the definition is gone (the table was retired meanwhile)
   * @throws IllegalStateException when a capture pointer names a missing blob (a broken store)
   */
  public static TableMetadata tableMetadata(
      ReadTransaction tx, TableSource.Managed source, String displayName) {
    Resource<Table> table = source.table();
    if (source instanceof TableSource.Captured captured) {
      CapturePointer pointer = captured.pointer();
      byte[] json = Blobs.read(tx, pointer.digest()).orElseThrow(() -> new IllegalStateException(
          "the capture of table " + table.id() + " names a missing blob"));
      try {
        JsonNode node = JsonUtil.mapper().readTree(json);
        if (pointer.metadataFile() != null) {
          // icegate wrote these very bytes as the metadata file: served unchanged, a client
          // reading the file gets what load-table answers (capture time included); only a
          // capture stored before the Delta state left the metadata loses that state
          if (node.get("properties") instanceof ObjectNode properties) {
            properties.remove(LEGACY_DELTA_STATE);
          }
          return TableMetadataParser.fromJson(pointer.metadataFile(), node);
        }
        JsonNode properties = node.get("properties");
        ObjectNode served = properties instanceof ObjectNode object
            ? object
            : ((ObjectNode) node).putObject("properties");
        served.put(Captures.CAPTURED_AT_PROPERTY, pointer.capturedAt().toString());
        return TableMetadataParser.fromJson(pointer.upstreamMetadataLocation(), node);
      } catch (IOException e) {
        throw new UncheckedIOException("unreadable capture of table " + table.id(), e);
      }
    }
    byte[] definition = MANAGED.definition(tx, table.accountId(), ResourceKind.TABLE, table.id())
        .orElseThrow(() -> new NoSuchTableException("Table does not exist: %s", displayName));
    return TableDefinition.fromBytes(definition).toTableMetadata();
  }

  /**
   * The complete view metadata served for managed view {@code view}, from its definition read in
   * {@code tx}: one version holding every SQL representation, timestamped with the View's last
   * publication, and {@link #servedLocation} as its metadata location (the REST spec requires one
   * in a load-view answer).
   *
   * @param displayName the view's name as the caller knows it, for the not-found message
   * @throws NoSuchViewException when the definition is gone (the view was retired meanwhile)
   */
  public static ViewMetadata viewMetadata(
      ReadTransaction tx, Resource<View> view, String displayName) {
    byte[] definition = MANAGED.definition(tx, view.accountId(), ResourceKind.VIEW, view.id())
        .orElseThrow(() -> new NoSuchViewException("View does not exist: %s", displayName));
    ViewMetadata served =
        ViewDefinition.fromBytes(definition).toViewMetadata(view.updatedAt().toEpochMilli());
    return ViewMetadata.buildFrom(served)
        .setMetadataLocation(
            servedLocation(view.id(), view.spec().provenance().definitionDigest()))
        .build();
  }
}
