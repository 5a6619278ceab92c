package io.icegate.core.auth;

/** What a token may do in its account (DESIGN.md "HTTP surfaces": admin, writer, reader). */
public enum TokenRole {
  READER,
  WRITER,
  ADMIN;

  /** Whether this role includes everything {@code other} may do. */
  public boolean covers(TokenRole other) {
    return compareTo(other) >= 0;
  }
}
