package io.icegate.gateway.catalog;

import io.icegate.core.catalog.WarehousePath;
import java.util.Locale;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * Table and view locations under one Catalog's warehouse: the default location of an identifier,
 * and the check that a client-chosen location stays inside the warehouse.
 *
 * <p>Each namespace level and the table name become exactly one path segment: {@code %}, {@code
 * /}, {@code \} and control characters are percent-encoded, and the whole-segment names {@code
 * ""}, {@code .} and {@code ..} are spelled {@code %00}, {@code %2E} and {@code %2E%2E}. Ordinary
 * names stay as typed. Distinct identifiers therefore get distinct locations that never leave the
 * warehouse; the FileIOs here do not URI-decode locations, so an encoded segment stays literal.
 *
 * <p>Containment is decided on normalized locations (core's {@link WarehousePath}, the same form
 * the warehouse claims between accounts use): {@code file:///p}, {@code file:/p} and {@code /p} are
 * the same, {@code s3a://} is {@code s3://}, empty and {@code .} segments are dropped, and any
 * {@code ..} segment is refused. A location is inside when its scheme and authority equal the
 * warehouse's and the warehouse's segments are a prefix of its own, so {@code file:/w/a} does not
 * cover {@code file:/w/ab}; the warehouse itself is not a valid location.
 */
public final class WarehouseLocations {
  private final String warehouse;
  private final WarehousePath root;

  /** @param warehouse the Catalog's warehouse, trailing slashes removed; null when it has none */
  WarehouseLocations(String warehouse) {
    this.warehouse = warehouse;
    this.root = warehouse == null ? null : WarehousePath.of(warehouse);
  }

  /**
   * The default location of {@code ident}: the warehouse, then one encoded segment per namespace
   * level, then the encoded name.
   *
   * @throws IllegalArgumentException when the Catalog has no warehouse
   */
  String defaultLocation(String catalogName, TableIdentifier ident) {
    if (warehouse == null) {
      throw new IllegalArgumentException(
          "Catalog " + catalogName + " has no warehouse: a table location is required");
    }
    StringBuilder location = new StringBuilder(warehouse);
    for (String level : ident.namespace().levels()) {
      location.append('/').append(segment(level));
    }
    return location.append('/').append(segment(ident.name())).toString();
  }

  /**
   * Refuses {@code location} unless it lies inside the warehouse; a Catalog without a warehouse
   * confines nothing, one whose warehouse has a {@code ..} segment refuses every location.
   *
   * @param what what the location is, for the message ({@code table location}, ...)
   * @throws BadRequestException (400) when it is outside, malformed or has a {@code ..} segment
   */
  void requireInside(String what, String location) {
    // Keyed on the warehouse, not on its normalized form: a stored warehouse with a '..' segment
    // (a create refuses one, but a Catalog stored before it did may have one) has none, and must
    // confine to nothing, not allow everything.
    if (warehouse == null || location == null) {
      return;
    }
    WarehousePath given = WarehousePath.of(location);
    if (given == null || !given.within(root)) {
      throw new BadRequestException(
          "Invalid %s %s: it must lie inside the catalog's warehouse %s", what, location,
          warehouse);
    }
  }

  /** One name as one path segment (see the class comment). */
  static String segment(String name) {
    if (name.isEmpty()) {
      return "%00";
    }
    if (name.equals(".")) {
      return "%2E";
    }
    if (name.equals("..")) {
      return "%2E%2E";
    }
    StringBuilder out = new StringBuilder(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '%' || c == '/' || c == '\\' || c < 0x20 || c == 0x7f) {
        out.append('%').append(String.format(Locale.ROOT, "%02X", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
