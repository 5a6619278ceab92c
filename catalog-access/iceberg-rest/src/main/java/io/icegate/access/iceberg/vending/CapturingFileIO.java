package io.icegate.access.iceberg.vending;

import java.util.List;
import java.util.Map;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.StorageCredential;
import org.apache.iceberg.io.SupportsStorageCredentials;

/**
 * The FileIO the provider's REST session gives every table: it performs no I/O at all and only
 * keeps the storage credentials of the load-table response that created it.
 *
 * <p>Why: iceberg-core hands a table's FileIO the merge of catalog properties and the response's
 * {@code config}, and the {@code storage-credentials} separately. The provider reads only the
 * latter, the protocol's dedicated vending channel, and must never touch storage through properties
 * that could be the client's own configuration; a FileIO that cannot read makes that impossible by
 * construction. Storage reads go through the SPI's {@link
 * io.icegate.access.storage.s3.StorageAccessProbe} instead.
 */
public final class CapturingFileIO implements FileIO, SupportsStorageCredentials {

  private volatile List<StorageCredential> credentials = List.of();

  @Override
  public void initialize(Map<String, String> properties) {
    // properties are deliberately ignored: see the class comment
  }

  @Override
  public void setCredentials(List<StorageCredential> credentials) {
    this.credentials = credentials == null ? List.of() : List.copyOf(credentials);
  }

  @Override
  public List<StorageCredential> credentials() {
    return credentials;
  }

  @Override
  public InputFile newInputFile(String path) {
    throw refused();
  }

  @Override
  public OutputFile newOutputFile(String path) {
    throw refused();
  }

  @Override
  public void deleteFile(String path) {
    throw refused();
  }

  @Override
  public Map<String, String> properties() {
    return Map.of();
  }

  private static UnsupportedOperationException refused() {
    return new UnsupportedOperationException(
        "catalog sessions of the catalog-access provider do not access storage");
  }
}
