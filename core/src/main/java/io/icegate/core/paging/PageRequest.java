package io.icegate.core.paging;

import io.icegate.core.error.IcegateException;

/**
 * Which page of a listing to read.
 *
 * @param pageToken the {@code nextPageToken} of the previous page, or {@code null} for the first
 *     page; opaque to callers
 * @param pageSize at most this many items, 1 to {@link #MAX_PAGE_SIZE}
 */
public record PageRequest(String pageToken, int pageSize) {
  /** Page size when the caller gives none. */
  public static final int DEFAULT_PAGE_SIZE = 100;
  /** Largest page size; bounds the work (and the transaction) of one page. */
  public static final int MAX_PAGE_SIZE = 1000;

  public PageRequest {
    if (pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
      throw IcegateException.invalidArgument("pageSize must be between 1 and " + MAX_PAGE_SIZE);
    }
    if (pageToken != null && pageToken.isEmpty()) {
      pageToken = null;
    }
  }

  /**
   * The value of a {@code pageSize} query parameter: its integer, saturated to the {@code int}
   * range (a size beyond it is just too large, for the caller's range check to name), or empty
   * when {@code text} is not an integer. Both HTTP surfaces parse it here, so neither answers a
   * number parser's exception.
   */
  public static java.util.OptionalInt parseSize(String text) {
    if (text == null || !text.matches("[+-]?[0-9]+")) {
      return java.util.OptionalInt.empty();
    }
    java.math.BigInteger value = new java.math.BigInteger(text);
    return java.util.OptionalInt.of(value.max(java.math.BigInteger.valueOf(Integer.MIN_VALUE))
        .min(java.math.BigInteger.valueOf(Integer.MAX_VALUE)).intValue());
  }

  /** The first page of {@code pageSize} items. */
  public static PageRequest first(int pageSize) {
    return new PageRequest(null, pageSize);
  }

  /** The first page at the default size. */
  public static PageRequest first() {
    return first(DEFAULT_PAGE_SIZE);
  }

  /** The page after the one that returned {@code pageToken}, at the same size. */
  public PageRequest next(String nextPageToken) {
    return new PageRequest(nextPageToken, pageSize);
  }
}
