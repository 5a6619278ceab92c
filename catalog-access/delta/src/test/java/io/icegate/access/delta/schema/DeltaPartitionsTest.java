package io.icegate.access.delta.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import java.util.List;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.junit.jupiter.api.Test;

class DeltaPartitionsTest {

  static final String SCHEMA =
      DeltaSchemas.toIcebergJson(
          """
          {"type":"struct","fields":[
            {"name":"id","type":"long","nullable":false,"metadata":{}},
            {"name":"region","type":"string","nullable":true,"metadata":{}},
            {"name":"day","type":"date","nullable":true,"metadata":{}},
            {"name":"address","type":{"type":"struct","fields":[
                {"name":"city","type":"string","nullable":true,"metadata":{}}]},
              "nullable":true,"metadata":{}}
          ]}
          """);

  @Test
  void partitionColumnsBecomeIdentityFieldsInTheirOrder() {
    Schema schema = SchemaParser.fromJson(SCHEMA);
    PartitionSpec spec =
        PartitionSpecParser.fromJson(
            schema, DeltaPartitions.identitySpecJson(SCHEMA, List.of("day", "region"), "t"));
    assertThat(spec.fields())
        .extracting(f -> schema.findColumnName(f.sourceId()), f -> f.transform().toString())
        .containsExactly(tuple("day", "identity"), tuple("region", "identity"));
    assertThat(
            PartitionSpecParser.fromJson(
                    schema, DeltaPartitions.identitySpecJson(SCHEMA, List.of(), "t"))
                .isUnpartitioned())
        .isTrue();
  }

  @Test
  void aColumnThatIsMissingOrNotPrimitiveIsAProtocolErrorNamingTheTable() {
    assertThatThrownBy(
            () -> DeltaPartitions.identitySpecJson(SCHEMA, List.of("country"), "sales.orders"))
        .isInstanceOfSatisfying(
            CatalogAccessException.class,
            e -> {
              assertThat(e.code()).isEqualTo(Code.UPSTREAM_PROTOCOL_ERROR);
              assertThat(e.getMessage()).contains("sales.orders").contains("country");
            });
    assertThatThrownBy(
            () -> DeltaPartitions.identitySpecJson(SCHEMA, List.of("address"), "sales.orders"))
        .isInstanceOfSatisfying(
            CatalogAccessException.class,
            e -> {
              assertThat(e.code()).isEqualTo(Code.UPSTREAM_PROTOCOL_ERROR);
              assertThat(e.getMessage()).contains("sales.orders").contains("non-primitive");
            });
  }
}
