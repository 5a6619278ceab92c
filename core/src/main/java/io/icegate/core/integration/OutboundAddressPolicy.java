package io.icegate.core.integration;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.ResourceKind;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Function;

/**
 * Which addresses an integration endpoint may resolve to (issue 5, "Outbound address policy"),
 * checked when an integration is created or its URI changes. Always refused unless {@link
 * Settings#allowMetadataAddresses()}: 0.0.0.0/8, link-local 169.254.0.0/16 and fe80::/10, the
 * cloud metadata addresses fd00:ec2::254 and 100.100.100.200, and the IPv4-mapped IPv6 forms of
 * the IPv4 ones. Loopback and private ranges are allowed unless denied by setting. Every address a
 * host name resolves to is checked, not just the first.
 *
 * <p>The catalog-access SPI checks again after DNS resolution when it connects; this admin-side
 * check should be unified with the SPI's policy class once both are on main.
 */
public final class OutboundAddressPolicy {
  private static final byte[] EC2_V6 = v6("fd00:ec2::254");

  private final Settings settings;
  private final Function<String, InetAddress[]> resolver;

  /**
   * The policy's server settings.
   *
   * @param allowMetadataAddresses allow the always-refused ranges (tests, special deployments)
   * @param denyLoopback refuse 127.0.0.0/8 and ::1
   * @param denyPrivate refuse 10/8, 172.16/12, 192.168/16, 100.64/10 and fc00::/7
   */
  public record Settings(boolean allowMetadataAddresses, boolean denyLoopback,
      boolean denyPrivate) {
    /** The defaults: metadata ranges refused, loopback and private allowed. */
    public static final Settings DEFAULT = new Settings(false, false, false);
  }

  /** A policy resolving host names with the system resolver. */
  public OutboundAddressPolicy(Settings settings) {
    this(settings, OutboundAddressPolicy::resolve);
  }

  /** A policy with its own resolver (tests: a host that resolves to several addresses). */
  public OutboundAddressPolicy(Settings settings, Function<String, InetAddress[]> resolver) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.resolver = Objects.requireNonNull(resolver, "resolver");
  }

  /**
   * Checks every address {@code host} resolves to. A host that does not resolve passes: the SPI
   * checks again when it connects, and an integration may be created before its DNS exists.
   *
   * @throws IcegateException OUTBOUND_ADDRESS_REJECTED naming the host
   */
  public void check(String host) {
    String bare = host.startsWith("[") && host.endsWith("]")
        ? host.substring(1, host.length() - 1) : host;
    InetAddress[] addresses = resolver.apply(bare);
    if (addresses == null) {
      return;
    }
    for (InetAddress address : addresses) {
      if (!allowed(address)) {
        throw new IcegateException(ErrorCode.OUTBOUND_ADDRESS_REJECTED, ResourceKind.INTEGRATION,
            host);
      }
    }
  }

  /** Whether {@code address} may be connected to. */
  public boolean allowed(InetAddress address) {
    byte[] a = address.getAddress();
    if (address instanceof Inet6Address && isV4Mapped(a)) {
      a = Arrays.copyOfRange(a, 12, 16);
    }
    if (a.length == 4) {
      int b0 = a[0] & 0xff;
      int b1 = a[1] & 0xff;
      boolean metadata = b0 == 0 || (b0 == 169 && b1 == 254)
          || (b0 == 100 && b1 == 100 && (a[2] & 0xff) == 100 && (a[3] & 0xff) == 200);
      if (metadata && !settings.allowMetadataAddresses()) {
        return false;
      }
      if (b0 == 127 && settings.denyLoopback()) {
        return false;
      }
      boolean privateRange = b0 == 10 || (b0 == 172 && (b1 & 0xf0) == 16)
          || (b0 == 192 && b1 == 168) || (b0 == 100 && (b1 & 0xc0) == 64);
      return !(privateRange && settings.denyPrivate());
    }
    boolean linkLocal = (a[0] & 0xff) == 0xfe && (a[1] & 0xc0) == 0x80;
    boolean metadata = linkLocal || Arrays.equals(a, EC2_V6) || isAllZero(a);
    if (metadata && !settings.allowMetadataAddresses()) {
      return false;
    }
    if (address.isLoopbackAddress() && settings.denyLoopback()) {
      return false;
    }
    boolean uniqueLocal = (a[0] & 0xfe) == 0xfc;
    return !(uniqueLocal && settings.denyPrivate());
  }

  private static boolean isV4Mapped(byte[] a) {
    for (int i = 0; i < 10; i++) {
      if (a[i] != 0) {
        return false;
      }
    }
    return (a[10] & 0xff) == 0xff && (a[11] & 0xff) == 0xff;
  }

  private static boolean isAllZero(byte[] a) {
    for (byte b : a) {
      if (b != 0) {
        return false;
      }
    }
    return true;
  }

  private static InetAddress[] resolve(String host) {
    try {
      return InetAddress.getAllByName(host);
    } catch (UnknownHostException e) {
      return null;
    }
  }

  private static byte[] v6(String literal) {
    try {
      return Inet6Address.getByName(literal).getAddress();
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e);
    }
  }

}
