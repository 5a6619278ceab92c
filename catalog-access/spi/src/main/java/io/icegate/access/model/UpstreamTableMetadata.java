package io.icegate.access.model;

import java.util.Objects;

/**
 * The full state of one upstream Iceberg table as of one metadata file: snapshots, refs, schemas,
 * partition specs, sort orders and the snapshot log, as Iceberg's {@code TableMetadataParser}
 * writes them. Data and manifest files are not part of it. Carried as text because this module
 * does not depend on Iceberg; a consumer parses it with {@code TableMetadataParser.fromJson}.
 *
 * @param metadataLocation the metadata file this state is read from (Iceberg {@code
 *     metadata-location}); never {@code null}
 * @param metadataJson the table metadata JSON of that file
 */
public record UpstreamTableMetadata(String metadataLocation, String metadataJson) {

  public UpstreamTableMetadata {
    Objects.requireNonNull(metadataLocation, "metadataLocation");
    Objects.requireNonNull(metadataJson, "metadataJson");
  }
}
