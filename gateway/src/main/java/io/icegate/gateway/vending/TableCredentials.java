package io.icegate.gateway.vending;

import java.util.Objects;

/**
 * Picks the {@link TableCredentialSource} of a table: managed tables (captured from an upstream)
 * vend what their upstream vends, native tables what their Catalog's storage configuration allows.
 */
public final class TableCredentials {
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
