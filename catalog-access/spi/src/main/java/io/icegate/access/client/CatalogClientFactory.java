package io.icegate.access.client;

import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.connection.CatalogConnectionConfig;
import io.icegate.access.connection.CatalogProtocol;
import io.icegate.access.connection.ResolvedCatalogCredentials;
import io.icegate.access.network.OutboundAddressPolicy;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;

/**
 * Finds the provider for a {@link CatalogProtocol} among those registered with {@link
 * ServiceLoader} and opens clients through it. Lookup is strict: no provider, or two for one
 * protocol, fails with {@code PROVIDER_UNAVAILABLE} rather than picking one.
 */
public final class CatalogClientFactory {

  private final Map<CatalogProtocol, List<CatalogClientProvider>> providers;

  private CatalogClientFactory(Iterable<CatalogClientProvider> found) {
    Map<CatalogProtocol, List<CatalogClientProvider>> byProtocol =
        new EnumMap<>(CatalogProtocol.class);
    for (CatalogClientProvider provider : found) {
      byProtocol
          .computeIfAbsent(provider.protocol(), p -> new java.util.ArrayList<>())
          .add(provider);
    }
    byProtocol.replaceAll((protocol, list) -> List.copyOf(list));
    this.providers = Map.copyOf(byProtocol);
  }

  /** Providers registered with the thread's context class loader. */
  public static CatalogClientFactory load() {
    return load(Thread.currentThread().getContextClassLoader());
  }

  /** Providers registered with {@code loader}. */
  public static CatalogClientFactory load(ClassLoader loader) {
    return new CatalogClientFactory(ServiceLoader.load(CatalogClientProvider.class, loader));
  }

  /** A factory over explicit providers (tests, embedding). */
  public static CatalogClientFactory of(List<CatalogClientProvider> providers) {
    return new CatalogClientFactory(providers);
  }

  /**
   * The single provider for {@code protocol}.
   *
   * @throws CatalogAccessException {@code PROVIDER_UNAVAILABLE} when none or several are registered
   *     (the message names their classes)
   */
  public CatalogClientProvider provider(CatalogProtocol protocol) {
    List<CatalogClientProvider> found = providers.getOrDefault(protocol, List.of());
    if (found.isEmpty()) {
      throw new CatalogAccessException(
          Code.PROVIDER_UNAVAILABLE, "no catalog-access provider is registered for " + protocol);
    }
    if (found.size() > 1) {
      throw new CatalogAccessException(
          Code.PROVIDER_UNAVAILABLE,
          "several catalog-access providers are registered for "
              + protocol
              + ": "
              + found.stream().map(p -> p.getClass().getName()).sorted().toList());
    }
    return found.get(0);
  }

  /** Opens a client under the default {@link OutboundAddressPolicy}. */
  public CatalogClient open(
      CatalogConnectionConfig config, ResolvedCatalogCredentials credentials) {
    return open(config, credentials, OutboundAddressPolicy.defaults());
  }

  /**
   * Opens a client for {@code config.protocol()}.
   *
   * @throws CatalogAccessException see {@link #provider} and {@link CatalogClientProvider#open}
   */
  public CatalogClient open(
      CatalogConnectionConfig config,
      ResolvedCatalogCredentials credentials,
      OutboundAddressPolicy policy) {
    Objects.requireNonNull(config, "config");
    return provider(config.protocol())
        .open(
            config,
            credentials == null ? ResolvedCatalogCredentials.none() : credentials,
            Objects.requireNonNull(policy, "policy"));
  }
}
