package io.icegate.access.delta.iceberg;

import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionData;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;

/**
 * A Delta file's {@code partitionValues} (protocol "Partition Value Serialization": strings keyed
 * by physical column name, an empty string or a missing key for null) as the Iceberg partition
 * tuple of an identity spec. The data files do not contain partition columns, so these values are
 * the only place Iceberg readers find them.
 */
final class PartitionValues {

  private static final LocalDateTime EPOCH = LocalDateTime.of(1970, 1, 1, 0, 0);

  private final PartitionSpec spec;
  private final List<String> physicalNames;
  // copied per file: a new PartitionData builds (and prints) an Avro schema of the partition type,
  // which cost more than everything else a full capture of 10,000 files does (the bench)
  private final PartitionData empty;

  /**
   * @param spec the identity spec over the mapped schema
   * @param physicalPaths each top-level field's physical path ({@link
   *     StableSchema.Mapped#physicalPaths})
   */
  PartitionValues(PartitionSpec spec, Map<Integer, List<String>> physicalPaths) {
    this.spec = spec;
    this.physicalNames =
        spec.fields().stream().map(f -> physicalPaths.get(f.sourceId()).get(0)).toList();
    this.empty = new PartitionData(spec.partitionType());
  }

  /**
   * @throws IllegalArgumentException when a value cannot be read as its column's type
   */
  PartitionData of(Map<String, String> partitionValues) {
    PartitionData data = empty.copy();
    for (int i = 0; i < spec.fields().size(); i++) {
      PartitionField field = spec.fields().get(i);
      String text = partitionValues.get(physicalNames.get(i));
      Type type = spec.schema().findType(field.sourceId());
      data.set(i, text == null || text.isEmpty() ? null : parse(type, text));
    }
    return data;
  }

  private static Object parse(Type type, String text) {
    try {
      if (type.typeId() == Type.TypeID.TIMESTAMP) {
        return timestamp(text);
      }
      return Conversions.fromPartitionString(type, text);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "partition value '" + text + "' is not a " + type + ": " + e.getMessage(), e);
    }
  }

  /**
   * Delta writes {@code 1970-01-01 00:00:00[.ffffff]} (UTC for {@code timestamp}, as is for {@code
   * timestamp_ntz}) or ISO-8601 adjusted to UTC, {@code 1970-01-01T00:00:00.123456Z}.
   */
  private static long timestamp(String text) {
    String iso = text.trim().replace(' ', 'T');
    LocalDateTime local =
        iso.endsWith("Z") || iso.matches(".*[+-]\\d\\d:\\d\\d$")
            ? OffsetDateTime.parse(iso).withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime()
            : LocalDateTime.parse(iso);
    return ChronoUnit.MICROS.between(EPOCH, local);
  }
}
