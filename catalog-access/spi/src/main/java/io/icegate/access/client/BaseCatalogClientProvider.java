package io.icegate.access.client;

import io.icegate.access.connection.CatalogConnectionConfig;
import io.icegate.access.connection.CatalogProtocol;
import io.icegate.access.connection.ResolvedCatalogCredentials;
import io.icegate.access.network.OutboundAddressPolicy;
import java.util.Objects;

/**
 * The part every provider shares: a fixed protocol and capability set, and {@link #open}'s argument
 * contract, which is checked here once so providers cannot drift apart on it. {@code config} and
 * {@code policy} are required ({@link NullPointerException} naming the argument, {@code config}
 * checked first); absent {@code credentials} mean {@link ResolvedCatalogCredentials#none()}.
 *
 * <p>Subclasses still need a public no-argument constructor for {@code META-INF/services}.
 */
public abstract class BaseCatalogClientProvider implements CatalogClientProvider {

  private final CatalogProtocol protocol;
  private final CatalogCapabilities capabilities;

  protected BaseCatalogClientProvider(CatalogProtocol protocol, CatalogCapabilities capabilities) {
    this.protocol = Objects.requireNonNull(protocol, "protocol");
    this.capabilities = Objects.requireNonNull(capabilities, "capabilities");
  }

  @Override
  public final CatalogProtocol protocol() {
    return protocol;
  }

  @Override
  public final CatalogCapabilities capabilities() {
    return capabilities;
  }

  @Override
  public final CatalogClient open(
      CatalogConnectionConfig config,
      ResolvedCatalogCredentials credentials,
      OutboundAddressPolicy policy) {
    Objects.requireNonNull(config, "config");
    ResolvedCatalogCredentials resolved =
        credentials == null ? ResolvedCatalogCredentials.none() : credentials;
    return openChecked(config, resolved, Objects.requireNonNull(policy, "policy"));
  }

  /**
   * Opens a client once the arguments passed {@link #open}'s checks; same contract as {@link
   * CatalogClientProvider#open} otherwise.
   *
   * @param config never null
   * @param credentials never null, {@link ResolvedCatalogCredentials#none()} when none were given
   * @param policy never null
   */
  protected abstract CatalogClient openChecked(
      CatalogConnectionConfig config,
      ResolvedCatalogCredentials credentials,
      OutboundAddressPolicy policy);
}
