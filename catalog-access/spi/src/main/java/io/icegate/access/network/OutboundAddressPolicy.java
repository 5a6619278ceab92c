package io.icegate.access.network;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Which resolved addresses a provider may connect to: the defence against an Integration URI that
 * points at cloud metadata services or link-local hosts (issue 5 "Outbound address policy").
 *
 * <p>Always refused unless listed in {@link #allowed()}: {@code 0.0.0.0/8}, {@code 169.254.0.0/16},
 * {@code fe80::/10}, {@code fd00:ec2::254}, {@code 100.100.100.200}, the unspecified {@code ::},
 * and the IPv4-mapped IPv6 forms of the IPv4 ones. Loopback and private ranges are allowed unless the caller denies them. Every
 * address a name resolves to is checked, so a name that resolves to one good and one bad address is
 * refused.
 *
 * <p>The caller (the server configuration) builds the policy and passes it to {@code
 * CatalogClientFactory.open}; providers apply it after DNS resolution and before connecting. It is
 * the only implementation of these rules: the gateway adapts it for the admin API's check on
 * Integration create and update, so both sides refuse the same addresses.
 *
 * @param allowed ranges exempt from the always-refused list (e.g. a test's link-local endpoint)
 * @param allowLoopback whether {@code 127.0.0.0/8} and {@code ::1} may be reached
 * @param allowPrivate whether RFC 1918 ranges, {@code 100.64.0.0/10} and {@code fc00::/7} may be
 *     reached
 */
public record OutboundAddressPolicy(
    List<AddressRange> allowed, boolean allowLoopback, boolean allowPrivate) {

  static final List<AddressRange> ALWAYS_DENIED =
      List.of(
          AddressRange.parse("0.0.0.0/8"),
          AddressRange.parse("169.254.0.0/16"),
          AddressRange.parse("fe80::/10"),
          AddressRange.parse("fd00:ec2::254/128"),
          AddressRange.parse("100.100.100.200/32"),
          AddressRange.parse("::/128"));

  static final List<AddressRange> LOOPBACK =
      List.of(AddressRange.parse("127.0.0.0/8"), AddressRange.parse("::1/128"));

  static final List<AddressRange> PRIVATE =
      List.of(
          AddressRange.parse("10.0.0.0/8"),
          AddressRange.parse("172.16.0.0/12"),
          AddressRange.parse("192.168.0.0/16"),
          AddressRange.parse("100.64.0.0/10"),
          AddressRange.parse("fc00::/7"));

  public OutboundAddressPolicy {
    allowed = List.copyOf(allowed == null ? List.of() : allowed);
  }

  /** The default: loopback and private allowed, the always-refused list refused. */
  public static OutboundAddressPolicy defaults() {
    return new OutboundAddressPolicy(List.of(), true, true);
  }

  /** This policy with loopback refused. */
  public OutboundAddressPolicy denyLoopback() {
    return new OutboundAddressPolicy(allowed, false, allowPrivate);
  }

  /** This policy with private ranges refused. */
  public OutboundAddressPolicy denyPrivate() {
    return new OutboundAddressPolicy(allowed, allowLoopback, false);
  }

  /**
   * This policy with the always-refused ranges exempted (tests, deployments whose catalog really is
   * link-local). As with {@link #allow(String)}, an exempted address is exempt from every refusal,
   * so {@code fd00:ec2::254} stays reachable even when private ranges are denied.
   */
  public OutboundAddressPolicy allowMetadataAddresses() {
    return alsoAllowing(ALWAYS_DENIED);
  }

  /** This policy with {@code range} exempted from every refusal. */
  public OutboundAddressPolicy allow(String range) {
    return alsoAllowing(List.of(AddressRange.parse(range)));
  }

  private OutboundAddressPolicy alsoAllowing(List<AddressRange> ranges) {
    List<AddressRange> more = new ArrayList<>(allowed);
    more.addAll(ranges);
    return new OutboundAddressPolicy(more, allowLoopback, allowPrivate);
  }

  /**
   * Resolves {@code host} and checks every address.
   *
   * @return all addresses, in resolver order, each permitted
   * @throws CatalogAccessException {@code CONNECTION_FAILED} when the name does not resolve, {@code
   *     ADDRESS_DENIED} when any address is refused
   */
  public InetAddress[] resolve(String host) {
    InetAddress[] addresses;
    try {
      addresses = InetAddress.getAllByName(Objects.requireNonNull(host, "host"));
    } catch (UnknownHostException e) {
      throw new CatalogAccessException(Code.CONNECTION_FAILED, "cannot resolve host " + host, e);
    }
    check(host, Arrays.asList(addresses));
    return addresses;
  }

  /**
   * Checks addresses already resolved for {@code host}.
   *
   * @throws CatalogAccessException {@code ADDRESS_DENIED} naming the host and the first refused
   *     address
   */
  public void check(String host, List<InetAddress> addresses) {
    if (addresses.isEmpty()) {
      throw new CatalogAccessException(Code.CONNECTION_FAILED, "host " + host + " has no address");
    }
    for (InetAddress address : addresses) {
      String reason = refusal(address);
      if (reason != null) {
        throw new CatalogAccessException(
            Code.ADDRESS_DENIED,
            "host " + host + " resolves to " + address.getHostAddress() + ", " + reason);
      }
    }
  }

  /** Whether a single address may be reached. */
  public boolean permits(InetAddress address) {
    return refusal(address) == null;
  }

  private String refusal(InetAddress address) {
    InetAddress effective = unmapped(address);
    if (matches(allowed, effective) || matches(allowed, address)) {
      return null;
    }
    if (matches(ALWAYS_DENIED, effective)) {
      return "a link-local, unspecified or cloud-metadata address the outbound policy refuses";
    }
    if (!allowLoopback && matches(LOOPBACK, effective)) {
      return "a loopback address the outbound policy refuses";
    }
    if (!allowPrivate && matches(PRIVATE, effective)) {
      return "a private address the outbound policy refuses";
    }
    return null;
  }

  private static boolean matches(List<AddressRange> ranges, InetAddress address) {
    return ranges.stream().anyMatch(range -> range.contains(address));
  }

  /**
   * The IPv4 address inside an IPv4-mapped IPv6 address ({@code ::ffff:a.b.c.d}); the JDK already
   * unmaps literals it parses, but addresses built from raw bytes (a resolver, a socket) may keep
   * the 16-byte form, and a policy that only compared IPv4 ranges would let them through.
   */
  static InetAddress unmapped(InetAddress address) {
    if (!(address instanceof Inet6Address)) {
      return address;
    }
    byte[] bytes = address.getAddress();
    for (int i = 0; i < 10; i++) {
      if (bytes[i] != 0) {
        return address;
      }
    }
    if (bytes[10] != (byte) 0xFF || bytes[11] != (byte) 0xFF) {
      return address;
    }
    try {
      return InetAddress.getByAddress(Arrays.copyOfRange(bytes, 12, 16));
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e);
    }
  }
}
