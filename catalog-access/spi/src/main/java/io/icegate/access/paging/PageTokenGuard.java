package io.icegate.access.paging;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Stops a paginated listing whose upstream never ends it. A client that follows the next-page token
 * until the server omits it (iceberg-core's REST client, the Delta Sharing provider's listing loop)
 * would keep looping forever, while the result grows, against an upstream that repeats a token
 * (stuck) or cycles (A, B, A). Shared by every provider whose protocol paginates with tokens.
 *
 * <p>A listing is the run of GET requests one thread makes to one path with the same parameters: it
 * starts with an empty or absent {@code pageToken}. A token sent twice in one listing, or more than
 * {@code maxPages} requests, fails the listing with {@code UPSTREAM_PROTOCOL_ERROR}, so the caller
 * never receives a partial inventory as if it were complete. Per-thread state is enough because
 * iceberg-core issues the pages of one listing synchronously on the calling thread.
 */
public final class PageTokenGuard {

  public static final String PAGE_TOKEN = "pageToken";

  private record Listing(Set<String> tokens, int[] pages) {}

  private final int maxPages;
  private final ThreadLocal<Map<String, Listing>> listings = ThreadLocal.withInitial(HashMap::new);

  public PageTokenGuard(int maxPages) {
    this.maxPages = maxPages;
  }

  /**
   * Records a GET about to be sent; throws when it would continue a broken listing.
   *
   * @param path the request path without query
   * @param queryParams the request's query parameters; a listing's first page carries {@value
   *     #PAGE_TOKEN} empty (callers whose protocol omits it on the first page pass it empty here)
   * @throws CatalogAccessException {@code UPSTREAM_PROTOCOL_ERROR} on a repeated token or too many
   *     pages
   */
  public void beforeGet(String path, Map<String, String> queryParams) {
    if (queryParams == null || !queryParams.containsKey(PAGE_TOKEN)) {
      return;
    }
    Map<String, String> rest = new HashMap<>(queryParams);
    String token = rest.remove(PAGE_TOKEN);
    String key = path + rest;
    Map<String, Listing> byKey = listings.get();
    if (token == null || token.isEmpty()) {
      byKey.put(key, new Listing(new HashSet<>(), new int[] {1}));
      return;
    }
    Listing listing = byKey.computeIfAbsent(key, k -> new Listing(new HashSet<>(), new int[] {0}));
    listing.pages()[0]++;
    if (!listing.tokens().add(token)) {
      byKey.remove(key);
      throw new CatalogAccessException(
          Code.UPSTREAM_PROTOCOL_ERROR,
          "upstream pagination of "
              + path
              + " repeated a page token after "
              + (listing.pages()[0] - 1)
              + " pages; the listing is incomplete");
    }
    if (listing.pages()[0] > maxPages) {
      byKey.remove(key);
      throw new CatalogAccessException(
          Code.UPSTREAM_PROTOCOL_ERROR,
          "upstream pagination of "
              + path
              + " exceeded "
              + maxPages
              + " pages; the listing is incomplete");
    }
  }
}
