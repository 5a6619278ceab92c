package io.icegate.overlay.adapter;

import io.icegate.access.connection.CatalogConnectionConfig;
import io.icegate.access.connection.ResolvedCatalogCredentials;
import java.util.Objects;

/**
 * One Integration translated for the catalog-access SPI, with the generations it was read at.
 * Process-local: the credentials are secret runtime material and are never persisted or logged
 * (their {@code toString} prints names only).
 *
 * @param accountId the owning account
 * @param integrationId the Integration's immutable id
 * @param configurationGeneration the Integration's configuration generation when read (advances on
 *     URI, property and credential changes; discovery page tokens are bound to it)
 * @param credentialGeneration the credential generation the secrets came from (0 when the
 *     authentication has no secret members)
 * @param config the persistable half: protocol, endpoint, properties, non-secret authentication
 * @param credentials the secret half
 */
public record IntegrationConnection(
    String accountId,
    String integrationId,
    long configurationGeneration,
    long credentialGeneration,
    CatalogConnectionConfig config,
    ResolvedCatalogCredentials credentials) {

  public IntegrationConnection {
    Objects.requireNonNull(accountId, "accountId");
    Objects.requireNonNull(integrationId, "integrationId");
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(credentials, "credentials");
  }
}
