package io.icegate.core.integration;

import io.icegate.core.error.IcegateException;

/**
 * The outbound address policy as the admin side needs it (issue 5, "Outbound address policy"):
 * whether an Integration's endpoint host may be stored. The rules themselves live once, in the
 * catalog-access SPI's {@code OutboundAddressPolicy}; core must not depend on catalog-access
 * (DESIGN.md, module table), so the gateway, which depends on both, supplies the implementation.
 */
@FunctionalInterface
public interface UpstreamAddressCheck {

  /**
   * Checks every address {@code host} resolves to. A host that does not resolve yet passes: the
   * providers check again after resolution when they connect.
   *
   * @param host the endpoint URI's host as {@link java.net.URI#getHost()} gives it (an IPv6
   *     literal in brackets)
   * @throws IcegateException OUTBOUND_ADDRESS_REJECTED naming the host and nothing else
   */
  void check(String host);
}
