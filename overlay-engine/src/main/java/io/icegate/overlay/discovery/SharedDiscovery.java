package io.icegate.overlay.discovery;

import io.icegate.access.client.CatalogClient;
import io.icegate.access.client.CatalogCapabilities;
import io.icegate.access.model.CatalogObjectKind;
import io.icegate.access.model.CatalogObjectRef;
import io.icegate.access.model.DeltaTableSource;
import io.icegate.access.model.LoadedTable;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.model.UpstreamTable;
import io.icegate.access.model.UpstreamTableMetadata;
import io.icegate.access.model.UpstreamView;
import io.icegate.access.model.ViewSqlNames;
import io.icegate.access.storage.VendedStorageCredentials;
import io.icegate.overlay.adapter.IntegrationConnection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The upstream reads of one round of an Integration's upstream job, shared by the round's
 * Overlays (issue 28, seed 000 "shared discovery"): each Overlay's reconcile discovers its own
 * selection through {@link #open}, and every discovery read (the authentication check, each
 * namespace listing, each object listing, each table and view load) reaches the upstream at most
 * once per round, whichever Overlays ask for it and in whatever order. So a round costs one
 * discovery of the union of its Overlays' selections, while each Overlay still publishes from
 * its own inventory into its own Catalog, fenced and reported on its own.
 *
 * <p>Failures are shared like answers: an upstream that failed a read for one Overlay fails it
 * for the others of the round without being asked again (a round does not hammer an upstream
 * that is down); a read cut short by an interrupt is not kept. The authentication check is asked
 * again once reads of the round have failed since it was answered: a reconcile whose loads could
 * not reach the upstream checks whether it still answers (found on a real Unity 0.6.0 killed
 * during a scheduled round, when the round's first success answered the check again). Credential vending, storage
 * checks and Delta log sources are never shared: they hand out credentials fresh each time. One
 * upstream session is opened per round (by the first Overlay) and closed by {@link #close}; an
 * Overlay whose connection was resolved at other generations (a rotation mid-round, which the
 * job's fence then cancels) opens its own, unshared.
 *
 * <p>Memory: the round keeps every answer until it ends, table loads included (their metadata
 * stays reachable), so a round holds the metadata of its union scope. Thread-safe.
 */
public final class SharedDiscovery implements AutoCloseable {
  private final Map<List<Object>, CompletableFuture<Object>> answers = new ConcurrentHashMap<>();
  private final AtomicInteger failedReads = new AtomicInteger();
  private IntegrationConnection sharedConnection;
  private CatalogClient shared;
  private boolean closed;

  /**
   * A client for one Overlay's run of this round: reads through the round's shared answers when
   * {@code connection} is the round's (same Integration and generations), else a client of its
   * own. Closing the returned client does not close the round's session.
   *
   * @param opener opens a session for a connection (the reconciler's own way)
   */
  public synchronized CatalogClient open(IntegrationConnection connection,
      Function<IntegrationConnection, CatalogClient> opener) {
    Objects.requireNonNull(connection, "connection");
    if (closed) {
      throw new IllegalStateException("the round's shared discovery is closed");
    }
    if (shared == null) {
      shared = opener.apply(connection);
      sharedConnection = connection;
    } else if (!sameSession(sharedConnection, connection)) {
      return opener.apply(connection);
    }
    return new Reads(shared);
  }

  private static boolean sameSession(IntegrationConnection a, IntegrationConnection b) {
    return a.accountId().equals(b.accountId()) && a.integrationId().equals(b.integrationId())
        && a.configurationGeneration() == b.configurationGeneration()
        && a.credentialGeneration() == b.credentialGeneration();
  }

  /** Ends the round: closes its upstream session and drops every answer. */
  @Override
  public synchronized void close() {
    closed = true;
    answers.clear();
    if (shared != null) {
      shared.close();
      shared = null;
    }
  }

  /**
   * The answer of {@code key}: asked of the upstream by the first caller, waited for by callers
   * meanwhile, and the same answer (or failure) for every later one.
   */
  @SuppressWarnings("unchecked")
  private <T> T once(List<Object> key, Supplier<T> call) {
    CompletableFuture<Object> mine = new CompletableFuture<>();
    CompletableFuture<Object> found = answers.putIfAbsent(key, mine);
    if (found == null) {
      try {
        T value = call.get();
        mine.complete(value);
        return value;
      } catch (RuntimeException | Error e) {
        if (Thread.currentThread().isInterrupted()) {
          // Cut short (a scan cancelling its other reads), not an answer: the next asks again.
          answers.remove(key, mine);
        } else {
          failedReads.incrementAndGet();
        }
        mine.completeExceptionally(e); // whoever waits meanwhile must not wait forever
        throw e;
      }
    }
    try {
      return (T) found.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw e;
    }
  }

  /** One Overlay's view of the round's session: discovery reads shared, the rest passed on. */
  private final class Reads implements CatalogClient {
    private final CatalogClient upstream;

    Reads(CatalogClient upstream) {
      this.upstream = upstream;
    }

    @Override
    public CatalogCapabilities capabilities() {
      return upstream.capabilities();
    }

    @Override
    public void validate() {
      once(List.of("validate", failedReads.get()), () -> {
        upstream.validate();
        return Boolean.TRUE;
      });
    }

    @Override
    public List<NamespacePath> listNamespaces(NamespacePath parent) {
      return once(List.of("namespaces", parent), () -> upstream.listNamespaces(parent));
    }

    @Override
    public List<CatalogObjectRef> listObjects(NamespacePath namespace,
        Set<CatalogObjectKind> kinds) {
      Set<CatalogObjectKind> asked = kinds.isEmpty() ? Set.of() : EnumSet.copyOf(kinds);
      return once(List.of("objects", namespace, asked),
          () -> upstream.listObjects(namespace, kinds));
    }

    @Override
    public UpstreamTable loadTable(NamespacePath namespace, String name) {
      return loadTableWithMetadata(namespace, name).table();
    }

    @Override
    public LoadedTable loadTableWithMetadata(NamespacePath namespace, String name) {
      return once(List.of("table", namespace, name),
          () -> upstream.loadTableWithMetadata(namespace, name));
    }

    @Override
    public UpstreamTableMetadata loadTableMetadata(NamespacePath namespace, String name) {
      return upstream.loadTableMetadata(namespace, name);
    }

    @Override
    public DeltaTableSource deltaTableSource(NamespacePath namespace, String name) {
      return upstream.deltaTableSource(namespace, name);
    }

    @Override
    public Optional<String> upstreamCatalogName() {
      return upstream.upstreamCatalogName();
    }

    @Override
    public Optional<ViewSqlNames> viewSqlNames() {
      return upstream.viewSqlNames();
    }

    @Override
    public UpstreamView loadView(NamespacePath namespace, String name) {
      return once(List.of("view", namespace, name), () -> upstream.loadView(namespace, name));
    }

    @Override
    public Optional<VendedStorageCredentials> vendStorageCredentials(NamespacePath namespace,
        String name) {
      return upstream.vendStorageCredentials(namespace, name);
    }

    @Override
    public void validateStorageAccess(UpstreamTable table,
        VendedStorageCredentials credentials) {
      upstream.validateStorageAccess(table, credentials);
    }

    /** The round's session stays open for the round's other Overlays. */
    @Override
    public void close() {}
  }
}
