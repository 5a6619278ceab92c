package io.icegate.overlay.adapter;

import io.icegate.access.network.OutboundAddressPolicy;

/**
 * The SPI's outbound address policy built from the server's policy settings, so the check at
 * Integration write time (core) and the check at connect time (every provider, after DNS
 * resolution) follow the same configuration. Two policy classes exist today (core's admin-side
 * check and the SPI's); this is the one bridge between them until they are unified.
 */
public final class OutboundPolicies {
  /** The ranges the SPI always refuses unless exempted (see {@link OutboundAddressPolicy}). */
  private static final String[] METADATA_RANGES = {
    "0.0.0.0/8", "169.254.0.0/16", "fe80::/10", "fd00:ec2::254/128", "100.100.100.200/32"
  };

  private OutboundPolicies() {}

  /** The SPI policy equivalent to {@code settings}. */
  public static OutboundAddressPolicy of(
      io.icegate.core.integration.OutboundAddressPolicy.Settings settings) {
    OutboundAddressPolicy policy = OutboundAddressPolicy.defaults();
    if (settings.denyLoopback()) {
      policy = policy.denyLoopback();
    }
    if (settings.denyPrivate()) {
      policy = policy.denyPrivate();
    }
    if (settings.allowMetadataAddresses()) {
      for (String range : METADATA_RANGES) {
        policy = policy.allow(range);
      }
    }
    return policy;
  }
}
