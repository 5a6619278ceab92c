package io.icegate.access.deltasharing;

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
 * The Delta Sharing provider, registered for {@link CatalogProtocol#DELTA_SHARING} through {@code
 * META-INF/services}. It speaks the protocol's REST API directly ({@code delta-sharing-client} is
 * not served by any registry here); settings are described on {@link SharingSettings}, the mapping
 * on {@link DeltaSharingClient}.
 */
public final class DeltaSharingProvider extends BaseCatalogClientProvider {

  private static final CatalogCapabilities CAPABILITIES =
      CatalogCapabilities.of(
          CatalogCapability.TABLES,
          CatalogCapability.CREDENTIAL_VENDING,
          CatalogCapability.STORAGE_VALIDATION,
          CatalogCapability.STABLE_TABLE_IDENTITY);

  public DeltaSharingProvider() {
    super(CatalogProtocol.DELTA_SHARING, CAPABILITIES);
  }

  /** The values {@link SharingSettings} parses: {@code true}/{@code false}, positive numbers. */
  @Override
  public void checkProperties(Map<String, String> properties) {
    SharingSettings.Values.of(properties);
  }

  @Override
  protected CatalogClient openChecked(
      CatalogConnectionConfig config,
      ResolvedCatalogCredentials credentials,
      OutboundAddressPolicy policy) {
    return new DeltaSharingClient(
        config, SharingSettings.of(config, credentials), policy, CAPABILITIES, Clock.systemUTC());
  }
}
