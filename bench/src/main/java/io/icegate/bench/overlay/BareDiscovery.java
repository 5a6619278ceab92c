package io.icegate.bench.overlay;

import io.icegate.access.client.CatalogClient;
import io.icegate.access.model.CatalogObjectKind;
import io.icegate.access.model.CatalogObjectRef;
import io.icegate.access.model.NamespacePath;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * The baseline of {@link ReconcileComparison}: what any tool must do to see a whole upstream
 * catalog, with nothing of icegate's around it. Through one catalog-access client, on a pool of
 * {@code concurrency} threads (the reconciler's setting, and the same fan-out shape as its scan):
 * validate, list namespaces level by level from the root, list the objects of every namespace, load
 * every table and view. Loaded metadata is dropped at once.
 */
final class BareDiscovery {
  /** What one pass saw. */
  record Seen(int namespaces, int tables, int views) {}

  private final int concurrency;

  BareDiscovery(int concurrency) {
    this.concurrency = concurrency;
  }

  /** One pass with {@code client}; any upstream failure is thrown. */
  Seen run(CatalogClient client) {
    ExecutorService pool = Executors.newFixedThreadPool(concurrency, r -> {
      Thread t = new Thread(r, "bare-discovery");
      t.setDaemon(true);
      return t;
    });
    try {
      client.validate();
      List<NamespacePath> namespaces = new ArrayList<>();
      List<NamespacePath> level = List.of(NamespacePath.root());
      while (!level.isEmpty()) {
        List<NamespacePath> next = new ArrayList<>();
        all(pool, level, client::listNamespaces).forEach(next::addAll);
        namespaces.addAll(next);
        level = next;
      }
      Set<CatalogObjectKind> kinds = client.capabilities().supportsViews()
          ? EnumSet.allOf(CatalogObjectKind.class) : EnumSet.of(CatalogObjectKind.TABLE);
      List<CatalogObjectRef> objects = new ArrayList<>();
      all(pool, namespaces, ns -> client.listObjects(ns, kinds)).forEach(objects::addAll);
      List<CatalogObjectKind> loaded = all(pool, objects, ref -> {
        if (ref.kind() == CatalogObjectKind.TABLE) {
          client.loadTable(ref.namespace(), ref.name());
        } else {
          client.loadView(ref.namespace(), ref.name());
        }
        return ref.kind();
      });
      int tables = (int) loaded.stream().filter(k -> k == CatalogObjectKind.TABLE).count();
      return new Seen(namespaces.size(), tables, loaded.size() - tables);
    } finally {
      pool.shutdownNow();
    }
  }

  private static <I, O> List<O> all(ExecutorService pool, List<I> inputs, Function<I, O> call) {
    List<Future<O>> futures = new ArrayList<>(inputs.size());
    for (I input : inputs) {
      futures.add(pool.submit(() -> call.apply(input)));
    }
    List<O> out = new ArrayList<>(inputs.size());
    try {
      for (Future<O> f : futures) {
        out.add(f.get());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      futures.forEach(f -> f.cancel(true));
      throw new IllegalStateException("bare discovery failed", e.getCause());
    }
    return out;
  }
}
