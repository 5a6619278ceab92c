package io.icegate.access.client;

import io.icegate.access.connection.CatalogConnectionConfig;
import io.icegate.access.connection.CatalogProtocol;
import io.icegate.access.connection.ResolvedCatalogCredentials;
import io.icegate.access.network.OutboundAddressPolicy;

/**
 * Providers registered in this module's test {@code META-INF/services} so the factory's lookup runs
 * through the real {@link java.util.ServiceLoader}: one for Delta Sharing, two clashing for Unity.
 * They only exist to be found; opening one is refused.
 */
final class RegisteredTestProviders {

  private RegisteredTestProviders() {}

  abstract static class Base implements CatalogClientProvider {
    @Override
    public CatalogCapabilities capabilities() {
      return CatalogCapabilities.of(CatalogCapability.TABLES);
    }

    @Override
    public CatalogClient open(
        CatalogConnectionConfig config,
        ResolvedCatalogCredentials credentials,
        OutboundAddressPolicy policy) {
      throw new CatalogAccessException(
          CatalogAccessException.Code.UNSUPPORTED, "lookup-only provider");
    }
  }

  public static final class DeltaSharing extends Base {
    @Override
    public CatalogProtocol protocol() {
      return CatalogProtocol.DELTA_SHARING;
    }
  }

  public static final class FirstUnity extends Base {
    @Override
    public CatalogProtocol protocol() {
      return CatalogProtocol.UNITY;
    }
  }

  public static final class SecondUnity extends Base {
    @Override
    public CatalogProtocol protocol() {
      return CatalogProtocol.UNITY;
    }
  }
}
