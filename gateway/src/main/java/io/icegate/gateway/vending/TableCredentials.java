package io.icegate.gateway.vending;

import io.icegate.access.delta.log.DeltaLog;
import io.icegate.overlay.generated.GeneratedFiles;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.credentials.ImmutableCredential;

/**
 * Picks the {@link TableCredentialSource} of a table: managed tables (captured from an upstream)
 * vend what their upstream vends, native tables what their Catalog's storage configuration allows.
 *
 * <p>A managed Delta table (issue 26) lives under two prefixes: its data files in the upstream's
 * storage, its generated Iceberg files (manifests, manifest lists, delete files) under the
 * Catalog's warehouse ({@link GeneratedFiles}). It gets one credential per prefix: the upstream's
 * for the data, and the Catalog's own, read-only, for the generated prefix, as the Catalog vends
 * for its native tables; when the Catalog vends nothing, only the upstream's (a client then reads
 * the warehouse with its own storage settings). The upstream's prefix is given in the form the
 * data file paths have ({@link #inDataPathForm}).
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
    VendingOutcome vended = managedTables.credentials(request);
    if (!(vended instanceof VendingOutcome.Vended upstream)
        || !DELTA.equals(request.table().spec().provenance().tableFormat())) {
      return vended;
    }
    VendingOutcome.Vended data = inDataPathForm(upstream);
    String generated;
    try {
      generated = GeneratedFiles.location(request.catalog(), request.table().id());
    } catch (UnsupportedOperationException e) {
      return data;
    }
    VendingOutcome own = nativeTables.credentials(new CredentialRequest(request.catalog(),
        request.identifier(), request.table(), generated, StorageAccess.READ));
    if (!(own instanceof VendingOutcome.Vended metadata)) {
      return data;
    }
    List<Credential> both = new ArrayList<>(data.credentials());
    both.addAll(metadata.credentials());
    return new VendingOutcome.Vended(both, earlier(data.expiresAt(), metadata.expiresAt()));
  }

  /**
   * {@code vended} with every prefix in the form the capture writes data file paths in: a prefix
   * with %-escapes, as the upstream states a location that is a URI ({@code s3://b/my%20table},
   * Unity's {@code storage_location}), decoded as the capture decodes the table location ({@link
   * DeltaLog#kernelPath}: {@code s3://b/my table}). iceberg-core's S3FileIO pairs a file with a
   * credential by string prefix, so the encoded prefix paired with none of the table's data files
   * and the client read them without the vended keys. Replaced, not advertised beside: a second
   * credential would cost the refresh route (one credential only) of a table whose Catalog vends
   * nothing, and no file of a captured table is named in the encoded form.
   */
  static VendingOutcome.Vended inDataPathForm(VendingOutcome.Vended vended) {
    List<Credential> credentials = new ArrayList<>();
    for (Credential credential : vended.credentials()) {
      String prefix = dataPathPrefix(credential.prefix());
      credentials.add(prefix.equals(credential.prefix()) ? credential
          : ImmutableCredential.builder().from(credential).prefix(prefix).build());
    }
    return new VendingOutcome.Vended(credentials, vended.expiresAt());
  }

  /** {@code prefix} decoded when it has a %-escape, else as it is (no other rewriting). */
  private static String dataPathPrefix(String prefix) {
    if (prefix.indexOf('%') < 0) {
      return prefix;
    }
    try {
      return DeltaLog.kernelPath(prefix);
    } catch (IllegalArgumentException e) {
      return prefix; // not an S3 location: nothing the capture names a data file under
    }
  }

  /** The earlier of two expiries, {@code null} standing for none. */
  private static Instant earlier(Instant a, Instant b) {
    if (a == null) {
      return b;
    }
    return b == null || a.isBefore(b) ? a : b;
  }
}
