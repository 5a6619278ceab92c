package io.icegate.access.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class UpstreamTableTest {

  private static final NamespacePath NS = NamespacePath.of("db");
  private static final String SCHEMA = "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[]}";

  @Test
  void theOldConstructorDescribesAnUnpartitionedUnsortedVersionTwoTable() {
    UpstreamTable table =
        new UpstreamTable(
            NS, "t", TableFormat.DELTA, ExternalIdentity.fromPath(NS, "t"), null, null, SCHEMA,
            Map.of());
    assertThat(table.partitionSpecJson()).isEqualTo(UpstreamTable.UNPARTITIONED_SPEC_JSON);
    assertThat(table.sortOrderJson()).isEqualTo(UpstreamTable.UNSORTED_ORDER_JSON);
    assertThat(table.formatVersion()).isEqualTo(2);

    UpstreamTable schemaless =
        new UpstreamTable(
            NS, "t", TableFormat.DELTA, ExternalIdentity.fromPath(NS, "t"), null, null, null,
            Map.of());
    assertThat(schemaless.partitionSpecJson()).isNull();
  }

  @Test
  void aPartitionSpecComesExactlyWithASchema() {
    assertThatThrownBy(() -> delta(SCHEMA, null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> delta(null, UpstreamTable.UNPARTITIONED_SPEC_JSON))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theIcebergTableUuidIsTheStableIdentityOfAnIcebergTableOnly() {
    UUID uuid = UUID.randomUUID();
    assertThat(iceberg(ExternalIdentity.stable(uuid.toString())).icebergTableUuid()).contains(uuid);
    assertThat(iceberg(ExternalIdentity.fromPath(NS, "t")).icebergTableUuid()).isEmpty();
    assertThat(delta(SCHEMA, UpstreamTable.UNPARTITIONED_SPEC_JSON).icebergTableUuid()).isEmpty();
    assertThatThrownBy(() -> iceberg(ExternalIdentity.stable("table-7")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("table UUID");
  }

  @Test
  void formatVersionStartsAtOne() {
    assertThatThrownBy(
            () ->
                new UpstreamTable(
                    NS, "t", TableFormat.ICEBERG, ExternalIdentity.fromPath(NS, "t"), null, null,
                    SCHEMA, Map.of(), UpstreamTable.UNPARTITIONED_SPEC_JSON,
                    UpstreamTable.UNSORTED_ORDER_JSON, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static UpstreamTable delta(String schema, String spec) {
    return new UpstreamTable(
        NS, "t", TableFormat.DELTA, ExternalIdentity.stable("unity-id"), null, null, schema,
        Map.of(), spec, UpstreamTable.UNSORTED_ORDER_JSON, 2);
  }

  private static UpstreamTable iceberg(ExternalIdentity identity) {
    return new UpstreamTable(
        NS, "t", TableFormat.ICEBERG, identity, "s3://b/t/metadata/v1.metadata.json", "s3://b/t",
        SCHEMA, Map.of(), UpstreamTable.UNPARTITIONED_SPEC_JSON, UpstreamTable.UNSORTED_ORDER_JSON,
        1);
  }
}
