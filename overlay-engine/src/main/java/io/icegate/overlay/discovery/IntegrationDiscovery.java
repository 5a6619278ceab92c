package io.icegate.overlay.discovery;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogCapabilities;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.connection.CatalogProtocol;
import io.icegate.access.model.CatalogObjectKind;
import io.icegate.access.model.CatalogObjectRef;
import io.icegate.access.model.NamespacePath;
import io.icegate.core.model.Integration;
import io.icegate.core.model.Resource;
import io.icegate.core.paging.Page;
import io.icegate.core.paging.PageRequest;
import io.icegate.core.paging.PageTokens;
import io.icegate.overlay.adapter.IntegrationAdapter;
import io.icegate.overlay.adapter.IntegrationClients;
import io.icegate.overlay.adapter.IntegrationConnection;
import io.icegate.overlay.adapter.UpstreamFailures;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Read-only, paginated discovery of an Integration's upstream catalog (seed 000 "Catalog access
 * boundary"): the direct child namespaces of a namespace, and the tables and views directly in
 * one. Nothing is persisted; each page lists the upstream afresh and cuts the page out of the
 * sorted inventory, so pages are deterministic for an unchanged upstream.
 *
 * <p>Page tokens come from core's {@link PageTokens} (HMAC under the store's key). A token is
 * bound to the account, the Integration, its configuration generation and credential generation,
 * the namespace and the kind filter; any other listing, or the same one after a URI, property or
 * credential change, refuses it with INVALID_PAGE_TOKEN (HTTP 400). The token's position is the
 * last item returned, so an upstream that gains or loses entries between pages neither repeats nor
 * skips the ones that stayed.
 *
 * <p>Upstream failures become catalogue errors ({@link UpstreamFailures}).
 */
public final class IntegrationDiscovery {
  private static final Comparator<CatalogObjectRef> OBJECT_ORDER =
      Comparator.comparing(CatalogObjectRef::name).thenComparing(CatalogObjectRef::kind);

  private final IntegrationAdapter adapter;
  private final IntegrationClients clients;
  private final PageTokens tokens;

  public IntegrationDiscovery(IntegrationAdapter adapter, IntegrationClients clients,
      PageTokens tokens) {
    this.adapter = Objects.requireNonNull(adapter, "adapter");
    this.clients = Objects.requireNonNull(clients, "clients");
    this.tokens = Objects.requireNonNull(tokens, "tokens");
  }

  /**
   * What the Integration's provider offers; no upstream call.
   *
   * @throws io.icegate.core.error.IcegateException NOT_FOUND, INTEGRATION_NOT_USABLE (no provider)
   */
  public CatalogCapabilities capabilities(String accountId, String integrationId) {
    Resource<Integration> integration = adapter.integration(accountId, integrationId);
    try {
      return clients.capabilities(CatalogProtocol.valueOf(integration.spec().type().name()));
    } catch (CatalogAccessException e) {
      throw UpstreamFailures.toIcegate(e, "provider");
    }
  }

  /**
   * One page of the direct children of {@code parent} (the root for top-level namespaces), each as
   * its full path, sorted by {@link NamespaceOrder}.
   *
   * @throws io.icegate.core.error.IcegateException NOT_FOUND (Integration or upstream namespace),
   *     INVALID_PAGE_TOKEN, INTEGRATION_NOT_USABLE, UPSTREAM_FAILED, UPSTREAM_UNAVAILABLE
   */
  public Page<NamespacePath> namespaces(String accountId, String integrationId,
      NamespacePath parent, PageRequest page) {
    IntegrationConnection connection = resolve(accountId, integrationId);
    String listing = binding("namespaces", connection, parent, "");
    List<NamespacePath> inventory = upstream(connection, parent.isRoot()
        ? UpstreamFailures.catalogSubject(connection.config()) : "namespace " + parent,
        client -> client.listNamespaces(parent));
    List<NamespacePath> sorted = new ArrayList<>(inventory);
    sorted.sort(NamespaceOrder.INSTANCE);
    return slice(sorted, listing, page, n -> n.segments().get(n.depth() - 1));
  }

  /**
   * One page of the tables and views directly in {@code namespace}, sorted by name then kind.
   *
   * @param kinds the kinds to list (empty means both); views only when the provider supports them
   * @throws io.icegate.core.error.IcegateException as {@link #namespaces}
   */
  public Page<CatalogObjectRef> objects(String accountId, String integrationId,
      NamespacePath namespace, Set<CatalogObjectKind> kinds, PageRequest page) {
    Set<CatalogObjectKind> filter = kinds.isEmpty() ? EnumSet.allOf(CatalogObjectKind.class)
        : EnumSet.copyOf(kinds);
    IntegrationConnection connection = resolve(accountId, integrationId);
    String listing = binding("objects", connection, namespace, new TreeSet<>(filter).toString());
    List<CatalogObjectRef> sorted = new ArrayList<>(upstream(connection,
        "namespace " + namespace, client -> client.listObjects(namespace, filter)));
    sorted.sort(OBJECT_ORDER);
    return slice(sorted, listing, page, o -> o.name() + '\u0000' + o.kind());
  }

  private IntegrationConnection resolve(String accountId, String integrationId) {
    try {
      return adapter.resolve(accountId, integrationId);
    } catch (CatalogAccessException e) {
      throw UpstreamFailures.toIcegate(e, "integration " + integrationId);
    }
  }

  private <T> List<T> upstream(IntegrationConnection connection, String subject,
      Function<CatalogClient, List<T>> call) {
    try (CatalogClient client = clients.open(connection)) {
      return call.apply(client);
    } catch (CatalogAccessException e) {
      throw UpstreamFailures.toIcegate(e, subject);
    }
  }

  /**
   * The page after the token's position. Positions compare by the item key ({@code key}); the
   * inventory is sorted so that key order is inventory order within one listing (one parent, one
   * namespace).
   */
  private <T> Page<T> slice(List<T> sorted, String listing, PageRequest page,
      Function<T, String> key) {
    int start = 0;
    if (page.pageToken() != null) {
      String after = new String(tokens.resume(listing, page.pageToken()), StandardCharsets.UTF_8);
      while (start < sorted.size() && key.apply(sorted.get(start)).compareTo(after) <= 0) {
        start++;
      }
    }
    int end = Math.min(sorted.size(), start + page.pageSize());
    List<T> items = sorted.subList(start, end);
    String next = end < sorted.size()
        ? tokens.issue(listing, key.apply(items.get(items.size() - 1))
            .getBytes(StandardCharsets.UTF_8))
        : null;
    return new Page<>(items, next);
  }

  /**
   * The listing a token is bound to. Segments are length-prefixed so no two different listings
   * serialize alike whatever characters names contain.
   */
  private static String binding(String kind, IntegrationConnection connection,
      NamespacePath namespace, String filter) {
    StringBuilder out = new StringBuilder("integration-discovery/").append(kind);
    for (String part : List.of(connection.accountId(), connection.integrationId(),
        Long.toString(connection.configurationGeneration()),
        Long.toString(connection.credentialGeneration()), filter)) {
      out.append('/').append(part.length()).append(':').append(part);
    }
    out.append("/ns").append(namespace.depth());
    for (String segment : namespace.segments()) {
      out.append('/').append(segment.length()).append(':').append(segment);
    }
    return out.toString();
  }
}
