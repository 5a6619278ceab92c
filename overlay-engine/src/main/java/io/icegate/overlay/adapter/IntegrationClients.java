package io.icegate.overlay.adapter;

import io.icegate.access.client.CatalogCapabilities;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.client.CatalogClientFactory;
import io.icegate.access.connection.CatalogProtocol;
import io.icegate.access.network.OutboundAddressPolicy;
import java.util.Objects;

/**
 * Opens catalog-access clients for resolved Integrations under the server's outbound address
 * policy, which every provider applies after DNS resolution and before connecting.
 */
public final class IntegrationClients {
  private final CatalogClientFactory factory;
  private final OutboundAddressPolicy policy;

  public IntegrationClients(CatalogClientFactory factory, OutboundAddressPolicy policy) {
    this.factory = Objects.requireNonNull(factory, "factory");
    this.policy = Objects.requireNonNull(policy, "policy");
  }

  /**
   * A client for {@code connection}; the caller closes it.
   *
   * @throws io.icegate.access.client.CatalogAccessException see {@link CatalogClientFactory#open}
   */
  /** The outbound address policy every connection (catalog or object store) applies. */
  public OutboundAddressPolicy policy() {
    return policy;
  }

  public CatalogClient open(IntegrationConnection connection) {
    return factory.open(connection.config(), connection.credentials(), policy);
  }

  /**
   * What the provider for {@code protocol} offers, without contacting the catalog.
   *
   * @throws io.icegate.access.client.CatalogAccessException {@code PROVIDER_UNAVAILABLE}
   */
  public CatalogCapabilities capabilities(CatalogProtocol protocol) {
    return factory.provider(protocol).capabilities();
  }
}
