package io.icegate.gateway.network;

import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.integration.UpstreamAddressCheck;
import io.icegate.core.model.ResourceKind;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;

/**
 * The admin API's {@link UpstreamAddressCheck} over the catalog-access SPI's {@link
 * OutboundAddressPolicy}, so an Integration is refused on create or update by exactly the rules its
 * provider applies when it connects.
 *
 * <p>Differences from the provider side, both deliberate: a host that does not resolve passes
 * (an Integration may be registered before its DNS record exists; the provider refuses it later),
 * and a refusal becomes core's {@code OUTBOUND_ADDRESS_REJECTED} naming only the host, because the
 * admin response is shown to the caller and the resolved addresses add nothing they can act on.
 */
public final class OutboundAddressCheck implements UpstreamAddressCheck {

  /** Resolves a host name to all its addresses, like {@link InetAddress#getAllByName}. */
  @FunctionalInterface
  public interface Resolver {
    InetAddress[] resolve(String host) throws UnknownHostException;
  }

  private final OutboundAddressPolicy policy;
  private final Resolver resolver;

  /** A check resolving names with the system resolver. */
  public OutboundAddressCheck(OutboundAddressPolicy policy) {
    this(policy, InetAddress::getAllByName);
  }

  /** A check with its own resolver (tests: a name with one good and one refused address). */
  public OutboundAddressCheck(OutboundAddressPolicy policy, Resolver resolver) {
    this.policy = Objects.requireNonNull(policy, "policy");
    this.resolver = Objects.requireNonNull(resolver, "resolver");
  }

  @Override
  public void check(String host) {
    Objects.requireNonNull(host, "host");
    String bare = host.startsWith("[") && host.endsWith("]")
        ? host.substring(1, host.length() - 1) : host;
    InetAddress[] addresses;
    try {
      addresses = resolver.resolve(bare);
    } catch (UnknownHostException e) {
      return;
    }
    for (InetAddress address : addresses) {
      if (!policy.permits(address)) {
        throw new IcegateException(
            ErrorCode.OUTBOUND_ADDRESS_REJECTED, ResourceKind.INTEGRATION, host);
      }
    }
  }
}
