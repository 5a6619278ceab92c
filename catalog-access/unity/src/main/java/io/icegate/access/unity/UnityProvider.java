package io.icegate.access.unity;

import io.icegate.access.client.BaseCatalogClientProvider;
import io.icegate.access.client.CatalogCapabilities;
import io.icegate.access.client.CatalogCapability;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.connection.CatalogConnectionConfig;
import io.icegate.access.connection.CatalogProtocol;
import io.icegate.access.connection.ResolvedCatalogCredentials;
import io.icegate.access.delta.iceberg.DeltaHeads;
import io.icegate.access.network.OutboundAddressPolicy;
import java.time.Clock;

/**
 * The Unity Catalog provider, registered for {@link CatalogProtocol#UNITY} through {@code
 * META-INF/services}. Namespaces have a fixed depth (schemas, or catalogs then schemas), so it does
 * not advertise hierarchical namespaces. Properties are described on {@link UnitySettings},
 * credentials on {@link io.icegate.access.unity.auth.CatalogTokens#forConnection}.
 */
public final class UnityProvider extends BaseCatalogClientProvider {

  static final CatalogCapabilities CAPABILITIES =
      CatalogCapabilities.of(
          CatalogCapability.TABLES,
          CatalogCapability.VIEW_LISTING,
          CatalogCapability.VIEW_METADATA,
          CatalogCapability.CREDENTIAL_VENDING,
          CatalogCapability.STORAGE_VALIDATION,
          CatalogCapability.STABLE_TABLE_IDENTITY);

  // the provider lives as long as the process; its clients, one per reconcile or request, do not
  private final DeltaHeads heads = new DeltaHeads();

  public UnityProvider() {
    super(CatalogProtocol.UNITY, CAPABILITIES);
  }

  @Override
  protected CatalogClient openChecked(
      CatalogConnectionConfig config,
      ResolvedCatalogCredentials credentials,
      OutboundAddressPolicy policy) {
    return new UnityClient(config, credentials, policy, Clock.systemUTC(), heads);
  }
}
