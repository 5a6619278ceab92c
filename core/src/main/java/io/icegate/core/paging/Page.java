package io.icegate.core.paging;

import java.util.List;
import java.util.Optional;

/**
 * One page of a listing.
 *
 * @param items the page's items, in listing order
 * @param nextPageToken token of the following page; {@code null} on the last page
 */
public record Page<T>(List<T> items, String nextPageToken) {
  public Page {
    items = List.copyOf(items);
  }

  /** The following page's token, empty on the last page. */
  public Optional<String> next() {
    return Optional.ofNullable(nextPageToken);
  }
}
