package io.icegate.overlay.reconcile;

import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * Upstream commits for capture tests: appends to {@code ns.t} through iceberg-core's REST client.
 * The data files are appended as metadata only and never written: capture reads no data file, and
 * a real snapshot, ref and snapshot-log entry is what it must carry.
 */
final class CaptureTestUpstream {
  private CaptureTestUpstream() {}

  /** One upstream commit appending a data file to {@code ns.t}; returns the new metadata file. */
  static String append(IcebergRestFixture upstream, String ns) {
    return append(upstream, ns, "t");
  }

  /** One upstream commit appending a data file to {@code ns.name}; returns the new metadata file. */
  static String append(IcebergRestFixture upstream, String ns, String name) {
    try (RESTCatalog client = upstream.newClient()) {
      org.apache.iceberg.Table table = client.loadTable(TableIdentifier.of(ns, name));
      DataFile file = DataFiles.builder(table.spec())
          .withPath(table.location() + "/data/" + UUID.randomUUID() + ".parquet")
          .withFileSizeInBytes(1024).withRecordCount(3).withFormat("PARQUET").build();
      table.newAppend().appendFile(file).commit();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return current(upstream, ns, name).metadataFileLocation();
  }

  /** The upstream's current metadata of {@code ns.t}, read from its backing catalog. */
  static TableMetadata current(IcebergRestFixture upstream, String ns) {
    return current(upstream, ns, "t");
  }

  /** The upstream's current metadata of {@code ns.name}, read from its backing catalog. */
  static TableMetadata current(IcebergRestFixture upstream, String ns, String name) {
    return ((HasTableOperations) upstream.backingCatalog().loadTable(
        TableIdentifier.of(ns, name))).operations().current();
  }
}
