package io.icegate.access.model;

import io.icegate.access.storage.VendedStorageCredentials;
import java.util.Map;
import java.util.Objects;

/**
 * Where and with what a caller reads one Delta table's log to capture it (issue 26): the table's
 * root, the version to read, the credentials the upstream vended for this table (never ambient
 * ones) and the store's non-secret settings. Process-local runtime material, never persisted.
 *
 * @param tableLocation the Delta table's root, e.g. {@code s3://bucket/path}
 * @param version the version to read (Delta Sharing: the one the share serves); {@code null} for
 *     the newest in the log
 * @param credentials what the upstream vended for the table
 * @param storeSettings the store's endpoint, region and path style by the names of {@link
 *     io.icegate.access.storage.s3.VendedS3Client}; other keys are ignored
 */
public record DeltaTableSource(
    String tableLocation,
    Long version,
    VendedStorageCredentials credentials,
    Map<String, String> storeSettings) {

  public DeltaTableSource {
    Objects.requireNonNull(tableLocation, "tableLocation");
    Objects.requireNonNull(credentials, "credentials");
    storeSettings = Map.copyOf(storeSettings);
  }
}
