package io.icegate.gateway.vending;

import io.icegate.overlay.generated.GeneratedFiles;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.iceberg.rest.credentials.Credential;

/**
 * Picks the {@link TableCredentialSource} of a table: managed tables (captured from an upstream)
 * vend what their upstream vends, native tables what their Catalog's storage configuration allows.
 *
 * <p>A managed Delta table (issue 26) lives under two prefixes: its data files in the upstream's
 * storage, its generated Iceberg files (manifests, manifest lists, delete files) under the
 * Catalog's warehouse ({@link GeneratedFiles}). It gets one credential per prefix: the upstream's
 * for the data, and the Catalog's own, read-only, for the generated prefix, as the Catalog vends
 * for its native tables; when the Catalog vends nothing, only the upstream's (a client then reads
 * the warehouse with its own storage settings).
 */
public final class TableCredentials {
  private static final String DELTA = "DELTA";

  private final TableCredentialSource nativeTables;
  private final TableCredentialSource managedTables;

  public TableCredentials(TableCredentialSource nativeTables, TableCredentialSource managedTables) {
    this.nativeTables = Objects.requireNonNull(nativeTables, "nativeTables");
    this.managedTables = Objects.requireNonNull(managedTables, "managedTables");
  }

  /**
   * Credentials for {@code request}, from the source its table's kind calls for.
   *
   * @throws CredentialsUnavailableException as {@link
   *     TableCredentialSource#credentials}
   */
  public VendingOutcome credentials(CredentialRequest request) {
    if (!request.managed()) {
      return nativeTables.credentials(request);
    }
    VendingOutcome upstream = managedTables.credentials(request);
    if (!(upstream instanceof VendingOutcome.Vended data)
        || !DELTA.equals(request.table().spec().provenance().tableFormat())) {
      return upstream;
    }
    String generated;
    try {
      generated = GeneratedFiles.location(request.catalog(), request.table().id());
    } catch (UnsupportedOperationException e) {
      return upstream;
    }
    VendingOutcome own = nativeTables.credentials(new CredentialRequest(request.catalog(),
        request.identifier(), request.table(), generated, StorageAccess.READ));
    if (!(own instanceof VendingOutcome.Vended metadata)) {
      return upstream;
    }
    List<Credential> both = new ArrayList<>(data.credentials());
    both.addAll(metadata.credentials());
    return new VendingOutcome.Vended(both, earlier(data.expiresAt(), metadata.expiresAt()));
  }

  /** The earlier of two expiries, {@code null} standing for none. */
  private static Instant earlier(Instant a, Instant b) {
    if (a == null) {
      return b;
    }
    return b == null || a.isBefore(b) ? a : b;
  }
}
