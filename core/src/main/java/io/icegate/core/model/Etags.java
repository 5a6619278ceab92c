package io.icegate.core.model;

import java.util.OptionalLong;

/**
 * HTTP entity tags of resources: {@code "<id>/<generation>"} (quoted). The id is part of the tag so
 * that an ETag of one resource never satisfies {@code If-Match} on another.
 */
public final class Etags {
  private Etags() {}

  /** The ETag of generation {@code generation} of resource {@code id}. */
  public static String of(String id, long generation) {
    return "\"" + id + "/" + generation + "\"";
  }

  /**
   * The generation an {@code If-Match} value names for resource {@code id}; empty when the value
   * is malformed or names another resource (the caller then answers 412).
   */
  public static OptionalLong generationOf(String etag, String id) {
    if (etag == null) {
      return OptionalLong.empty();
    }
    // If-Match uses strong comparison (RFC 9110 13.1.1): a weak tag never matches.
    String value = etag.strip();
    String prefix = "\"" + id + "/";
    if (!value.startsWith(prefix) || !value.endsWith("\"") || value.length() <= prefix.length() + 1) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(Long.parseLong(value.substring(prefix.length(), value.length() - 1)));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }
}
