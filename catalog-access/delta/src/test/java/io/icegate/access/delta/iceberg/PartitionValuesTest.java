package io.icegate.access.delta.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionData;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** Delta's serialized partition values (protocol "Partition Value Serialization") as Iceberg's. */
class PartitionValuesTest {

  static final Schema SCHEMA =
      new Schema(
          Types.NestedField.optional(1, "region", Types.StringType.get()),
          Types.NestedField.optional(2, "day", Types.DateType.get()),
          Types.NestedField.optional(3, "at", Types.TimestampType.withZone()),
          Types.NestedField.optional(4, "n", Types.IntegerType.get()));

  static final PartitionValues VALUES =
      new PartitionValues(
          PartitionSpec.builderFor(SCHEMA).identity("region").identity("day").identity("at").identity("n").build(),
          Map.of(1, List.of("col-r"), 2, List.of("day"), 3, List.of("at"), 4, List.of("n")));

  @Test
  void valuesAreReadByPhysicalNameAndType() {
    PartitionData data =
        VALUES.of(Map.of("col-r", "EU West", "day", "2024-01-02", "at", "2023-11-14 22:13:20.123456", "n", "7"));
    assertThat(data.get(0, String.class)).isEqualTo("EU West");
    assertThat(data.get(1, Integer.class)).isEqualTo(19724);
    assertThat(data.get(2, Long.class)).isEqualTo(1_700_000_000_123_456L);
    assertThat(data.get(3, Integer.class)).isEqualTo(7);
  }

  @Test
  void isoTimestampsAreAdjustedToUtcAndEmptyOrMissingValuesAreNull() {
    Map<String, String> values = new HashMap<>();
    values.put("col-r", "");
    values.put("at", "2023-11-14T23:13:20.5+01:00");
    PartitionData data = VALUES.of(values);
    assertThat(data.get(0, String.class)).isNull();
    assertThat(data.get(1, Integer.class)).isNull();
    assertThat(data.get(2, Long.class)).isEqualTo(1_700_000_000_500_000L);
  }

  @Test
  void aValueOfTheWrongTypeIsRefusedByName() {
    assertThatThrownBy(() -> VALUES.of(Map.of("n", "seven")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'seven'");
  }
}
