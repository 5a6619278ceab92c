package io.icegate.access.deltasharing;

import io.icegate.access.client.CatalogCapabilities;
import io.icegate.access.client.CatalogCapability;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.client.CatalogClientProvider;
import io.icegate.access.connection.CatalogConnectionConfig;
import io.icegate.access.connection.CatalogProtocol;
import io.icegate.access.connection.ResolvedCatalogCredentials;
import io.icegate.access.network.OutboundAddressPolicy;
import java.time.Clock;
import java.util.Objects;

/**
 * The Delta Sharing provider, registered for {@link CatalogProtocol#DELTA_SHARING} through {@code
 * META-INF/services}. It speaks the protocol's REST API directly ({@code delta-sharing-client} is
 * not served by any registry here); settings are described on {@link SharingSettings}, the mapping
 * on {@link DeltaSharingClient}.
 */
public final class DeltaSharingProvider implements CatalogClientProvider {

  private static final CatalogCapabilities CAPABILITIES =
      CatalogCapabilities.of(
          CatalogCapability.TABLES,
          CatalogCapability.CREDENTIAL_VENDING,
          CatalogCapability.STORAGE_VALIDATION,
          CatalogCapability.STABLE_TABLE_IDENTITY);

  @Override
  public CatalogProtocol protocol() {
    return CatalogProtocol.DELTA_SHARING;
  }

  @Override
  public CatalogCapabilities capabilities() {
    return CAPABILITIES;
  }

  @Override
  public CatalogClient open(
      CatalogConnectionConfig config,
      ResolvedCatalogCredentials credentials,
      OutboundAddressPolicy policy) {
    Objects.requireNonNull(config, "config");
    return new DeltaSharingClient(
        config,
        SharingSettings.of(
            config, credentials == null ? ResolvedCatalogCredentials.none() : credentials),
        Objects.requireNonNull(policy, "policy"),
        CAPABILITIES,
        Clock.systemUTC());
  }
}
