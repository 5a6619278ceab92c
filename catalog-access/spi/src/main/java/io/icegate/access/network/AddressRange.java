package io.icegate.access.network;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;

/**
 * An IPv4 or IPv6 CIDR block, e.g. {@code 169.254.0.0/16} or {@code fe80::/10}.
 *
 * @param network the network address (host bits are ignored)
 * @param prefixLength leading bits that must match, 0 to 32 (IPv4) or 128 (IPv6)
 */
public record AddressRange(InetAddress network, int prefixLength) {

  public AddressRange {
    Objects.requireNonNull(network, "network");
    int bits = network.getAddress().length * 8;
    if (prefixLength < 0 || prefixLength > bits) {
      throw new IllegalArgumentException("prefix length " + prefixLength + " outside 0.." + bits);
    }
  }

  /**
   * Parses {@code ADDRESS/BITS} or a bare address (a single host). Only literal addresses: no name
   * is resolved.
   *
   * @throws IllegalArgumentException when the text is not a literal CIDR block
   */
  public static AddressRange parse(String cidr) {
    int slash = cidr.indexOf('/');
    String address = slash < 0 ? cidr : cidr.substring(0, slash);
    if (!address.matches("[0-9A-Fa-f:.]+")) {
      throw new IllegalArgumentException("not a literal address range: " + cidr);
    }
    try {
      InetAddress network = InetAddress.getByName(address);
      int bits = network.getAddress().length * 8;
      int prefix = slash < 0 ? bits : Integer.parseInt(cidr.substring(slash + 1));
      return new AddressRange(network, prefix);
    } catch (UnknownHostException | NumberFormatException e) {
      throw new IllegalArgumentException("not a literal address range: " + cidr, e);
    }
  }

  /** Whether {@code address} lies in this block; IPv4 and IPv6 never match each other. */
  public boolean contains(InetAddress address) {
    byte[] candidate = address.getAddress();
    byte[] net = network.getAddress();
    if (candidate.length != net.length) {
      return false;
    }
    int full = prefixLength / 8;
    for (int i = 0; i < full; i++) {
      if (candidate[i] != net[i]) {
        return false;
      }
    }
    int rest = prefixLength % 8;
    if (rest == 0) {
      return true;
    }
    int mask = (0xFF << (8 - rest)) & 0xFF;
    return (candidate[full] & mask) == (net[full] & mask);
  }

  @Override
  public String toString() {
    return network.getHostAddress() + "/" + prefixLength;
  }
}
