package io.icegate.access.deltasharing.protocol;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;
import java.util.Map;

/**
 * The {@code metaData} line of the protocol's {@code /metadata} response: in the parquet response
 * format the line's object itself, in the Delta format its {@code deltaMetadata} (the Delta log's
 * metaData action, which states no location and no access modes).
 *
 * @param id the Delta table id from the table's log
 * @param name user-given name, or {@code null}
 * @param description user-given description, or {@code null}
 * @param location the table root, or {@code null} (newer servers send it for {@code dir} tables)
 * @param accessModes {@code url} and/or {@code dir}, or {@code null} when the server omits them
 * @param format the data file encoding ({@code provider} is {@code parquet}; Delta adds {@code
 *     options})
 * @param schemaString the Delta schema as serialized JSON text
 * @param partitionColumns partition column names, in order
 * @param configuration table configuration as the log states it
 * @param size the table's size in bytes at the version served, or {@code null} (optional: stated
 *     when the log has it; in the Delta format beside {@code deltaMetadata}, not in it)
 * @param numFiles the number of files of the table at that version, or {@code null} (as {@code
 *     size})
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record TableMetadata(
    String id,
    String name,
    String description,
    String location,
    List<String> accessModes,
    Map<String, Object> format,
    String schemaString,
    List<String> partitionColumns,
    Map<String, String> configuration,
    Long size,
    Long numFiles) {

  /** This metadata with the size and file count a Delta-format answer states beside it. */
  TableMetadata withTableSize(Long size, Long numFiles) {
    return new TableMetadata(id, name, description, location, accessModes, format, schemaString,
        partitionColumns, configuration, size, numFiles);
  }
}
