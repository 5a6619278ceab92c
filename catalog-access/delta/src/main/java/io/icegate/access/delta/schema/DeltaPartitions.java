package io.icegate.access.delta.schema;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import java.util.List;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.exceptions.ValidationException;

/**
 * A Delta table's partitioning as an Iceberg partition spec. Delta partitions by plain column
 * values, so each partition column (a top-level column, named as in the schema) becomes an identity
 * field, in the order the table's {@code metaData.partitionColumns} lists them.
 */
public final class DeltaPartitions {

  private DeltaPartitions() {}

  /**
   * @param schemaJson the mapped Iceberg schema ({@link DeltaSchemas#toIcebergJson})
   * @param partitionColumns the Delta partition columns, in order; empty when unpartitioned
   * @param table how the message names the table
   * @return the spec as {@code PartitionSpecParser} writes it, bound to {@code schemaJson}'s ids
   * @throws CatalogAccessException {@code UPSTREAM_PROTOCOL_ERROR} when a partition column is not
   *     a primitive top-level column of the schema
   */
  public static String identitySpecJson(
      String schemaJson, List<String> partitionColumns, String table) {
    PartitionSpec.Builder spec = PartitionSpec.builderFor(SchemaParser.fromJson(schemaJson));
    try {
      partitionColumns.forEach(spec::identity);
      return PartitionSpecParser.toJson(spec.build());
    } catch (IllegalArgumentException | ValidationException e) {
      // a missing column is an IllegalArgumentException; a non-primitive one fails build()'s
      // compatibility check with a ValidationException, which is not one
      throw new CatalogAccessException(
          Code.UPSTREAM_PROTOCOL_ERROR,
          "the partition columns of " + table + " do not fit its schema: " + e.getMessage());
    }
  }
}
