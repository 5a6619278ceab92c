package io.icegate.gateway.vending;

import java.util.Objects;

/**
 * Picks the {@link TableCredentialSource} of a table: managed tables (captured from an upstream)
 * vend what their upstream vends, native tables what their Catalog's storage configuration allows.
 */
public final class TableCredentials {
  /** The managed-table source until one is plugged in: managed tables vend nothing. */
  public static final TableCredentialSource MANAGED_NOT_VENDED = request ->
      new VendingOutcome.NotVended("storage credentials of managed table " + request.identifier()
          + " are not vended by this gateway");

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
    return request.managed()
        ? managedTables.credentials(request)
        : nativeTables.credentials(request);
  }
}
