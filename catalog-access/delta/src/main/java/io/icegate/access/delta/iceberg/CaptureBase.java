package io.icegate.access.delta.iceberg;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.mapping.NameMappingParser;

/**
 * The metadata a capture starts from: the previous capture's, or a new table's, carrying the
 * captured version's schema (stable ids), partition spec and the properties icegate sets. The
 * capture then adds its one snapshot to it ({@link DeltaVersionCapture}).
 */
final class CaptureBase {

  private CaptureBase() {}

  /**
   * The previous capture (or a new table) with this version's schema, spec and properties.
   *
   * @param dropSnapshots whether the snapshots captured before cannot be served with this version's
   *     schema or are not this table's: column mapping was enabled on the existing table ({@link
   *     StableSchema.Mapped#renumbered}), or a new Delta table was written at the path
   * @param startsOver whether Delta versions captured before are reused with other rows (a new
   *     table at the path, a log rewritten or rolled back): the next history ({@link SnapshotIds})
   */
  static TableMetadata of(
      TableMetadata previous,
      StableSchema.Mapped mapped,
      PartitionSpec spec,
      String tablePath,
      String tableIdentity,
      boolean dropSnapshots,
      boolean startsOver) {
    Map<String, String> properties = new HashMap<>();
    properties.put(
        TableProperties.DEFAULT_NAME_MAPPING, NameMappingParser.toJson(mapped.nameMapping()));
    properties.put(DeltaVersionCapture.DELTA_TABLE, tablePath);
    int history = SnapshotIds.history(previous) + (previous != null && startsOver ? 1 : 0);
    if (history > 0) {
      properties.put(SnapshotIds.DELTA_HISTORY, String.valueOf(history));
    }
    TableMetadata.Builder builder =
        previous == null
            ? TableMetadata.buildFromEmpty(2)
                .assignUUID(
                    UUID.nameUUIDFromBytes(tableIdentity.getBytes(StandardCharsets.UTF_8)).toString())
                .setLocation(tablePath)
                .setDefaultSortOrder(SortOrder.unsorted())
            : TableMetadata.buildFrom(SpecFieldNames.clearFor(previous, mapped.schema()));
    if (previous != null) {
      // a capture made before the Delta state left the metadata carried it in two properties
      // every client saw: the capture after it drops them
      Set<String> legacy = new HashSet<>(CapturedDeltaState.LEGACY_PROPERTIES);
      legacy.retainAll(previous.properties().keySet());
      if (!legacy.isEmpty()) {
        builder.removeProperties(legacy);
      }
    }
    if (previous != null && dropSnapshots) {
      // column mapping was enabled on the existing table: Delta renumbered its columns and the
      // files written since carry the new ids. Snapshots captured before would read the old files
      // through the one name mapping, now on the new ids, and show their columns as missing:
      // wrong rows. A new table at the path: the snapshots before are another table's rows.
      // Dropped instead, so time travel to them fails; the schemas stay, so no id is ever given
      // to another column
      builder.removeSnapshots(previous.snapshots());
    }
    return builder
        .setCurrentSchema(mapped.schema(), mapped.lastColumnId())
        .setDefaultPartitionSpec(spec)
        .setProperties(properties)
        .build();
  }
}
