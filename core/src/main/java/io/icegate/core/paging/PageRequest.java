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
