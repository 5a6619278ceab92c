package io.icegate.access.client;

import io.icegate.access.connection.CatalogConnectionConfig;
import io.icegate.access.connection.CatalogProtocol;
import io.icegate.access.connection.ResolvedCatalogCredentials;
import io.icegate.access.network.OutboundAddressPolicy;
import java.util.Map;

/**
 * A catalog protocol implementation, registered through {@code
 * META-INF/services/io.icegate.access.client.CatalogClientProvider} and found by {@link
 * CatalogClientFactory}. Providers need a public no-argument constructor.
 */
public interface CatalogClientProvider {

  /** The protocol this provider serves; exactly one provider per protocol may be registered. */
  CatalogProtocol protocol();

  /** What clients of this provider offer. */
  CatalogCapabilities capabilities();

  /**
   * Opens a client. Cheap: no network call happens before the first operation, except that the
   * endpoint's addresses may be checked against {@code policy}.
   *
   * @param policy applied to every address the client connects to, after DNS resolution and before
   *     connecting
   * @throws CatalogAccessException {@code INVALID_CONFIGURATION} for an unsupported scheme or
   *     missing, unknown or incomplete credential properties; {@code ADDRESS_DENIED}
   */
  CatalogClient open(
      CatalogConnectionConfig config,
      ResolvedCatalogCredentials credentials,
      OutboundAddressPolicy policy);

  /**
   * Checks the values of connection properties this provider reads, without credentials and without
   * the network: what an admin API can refuse when an Integration is created or updated, instead of
   * accepting it and failing at its first validation. Unknown names are left to {@link #open}.
   *
   * @throws CatalogAccessException {@code INVALID_CONFIGURATION} whose message names the property
   *     and the values it takes, never the value given
   */
  default void checkProperties(Map<String, String> properties) {}
}
