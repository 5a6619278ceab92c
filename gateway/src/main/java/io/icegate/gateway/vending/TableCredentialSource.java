package io.icegate.gateway.vending;

/**
 * Where storage credentials for a table come from. The gateway has two: native (local) tables
 * vend from their Catalog's storage configuration ({@link NativeCredentialSource}), managed tables
 * from their upstream through the CatalogIntegration. {@link TableCredentials} picks one per
 * table. A source never falls back to the server's own credentials: when it has nothing for a
 * table it answers {@link VendingOutcome.NotVended}.
 */
@FunctionalInterface
public interface TableCredentialSource {

  /**
   * Credentials for {@code request}'s table and access. May call out (STS, an upstream catalog);
   * sources cache in process memory only, never past shortly before expiry.
   *
   * @throws CredentialsUnavailableException when the credential issuer
   *     (STS, the upstream) cannot be reached or refuses; the message carries no secret
   */
  VendingOutcome credentials(CredentialRequest request);
}
