package io.icegate.access.iceberg;

import io.icegate.access.client.BaseCatalogClientProvider;
import io.icegate.access.client.CatalogCapabilities;
import io.icegate.access.client.CatalogCapability;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.connection.CatalogConnectionConfig;
import io.icegate.access.connection.CatalogProtocol;
import io.icegate.access.connection.ResolvedCatalogCredentials;
import io.icegate.access.network.OutboundAddressPolicy;
import java.time.Clock;
import java.util.Map;

/**
 * The Iceberg REST catalog provider, registered for {@link CatalogProtocol#ICEBERG_REST} through
 * {@code META-INF/services}. Clients run on iceberg-core's REST client (see {@link
 * IcebergRestClient}); properties and credentials are described on {@link SessionProperties}.
 */
public final class IcebergRestProvider extends BaseCatalogClientProvider {

  private static final CatalogCapabilities CAPABILITIES =
      CatalogCapabilities.of(
          CatalogCapability.HIERARCHICAL_NAMESPACES,
          CatalogCapability.TABLES,
          CatalogCapability.VIEW_LISTING,
          CatalogCapability.VIEW_METADATA,
          CatalogCapability.CREDENTIAL_VENDING,
          CatalogCapability.STORAGE_VALIDATION,
          CatalogCapability.STABLE_TABLE_IDENTITY);

  public IcebergRestProvider() {
    super(CatalogProtocol.ICEBERG_REST, CAPABILITIES);
  }

  /** Names and values {@link SessionProperties} accepts, checked when an Integration is written. */
  @Override
  public void checkProperties(Map<String, String> properties) {
    SessionProperties.check(properties);
  }

  @Override
  protected CatalogClient openChecked(
      CatalogConnectionConfig config,
      ResolvedCatalogCredentials credentials,
      OutboundAddressPolicy policy) {
    return new IcebergRestClient(config, credentials, policy, CAPABILITIES, Clock.systemUTC());
  }
}
