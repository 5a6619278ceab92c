package io.icegate.overlay.reconcile;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.model.CatalogObjectKind;
import io.icegate.access.model.CatalogObjectRef;
import io.icegate.access.model.LoadedTable;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.model.UpstreamView;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.ResourceKind;
import io.icegate.overlay.adapter.UpstreamFailures;
import io.icegate.overlay.discovery.NamespaceOrder;
import io.icegate.overlay.selection.NamespaceSelection;
import io.icegate.overlay.viewsql.MaterializedNames;
import io.icegate.overlay.viewsql.ViewSqlRewriter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Phase 1 (seed 000 "Reconciliation publication"): discovers the whole selected scope of an
 * upstream catalog and loads every table and view in it, without touching the store. Namespaces
 * are walked level by level from the root, descending only where {@link
 * NamespaceSelection#mayContainSelected} says a selected namespace can lie; listings and loads run
 * on at most {@code concurrency} threads. Each loaded object is reduced at once to a compact
 * {@link DesiredRelation}, so the Iceberg metadata of the scope is never held at once; the full
 * metadata of a table the run will capture goes to a bounded {@link MetadataStash}.
 *
 * <p>A listing failure fails the whole scan: there is no partial inventory. A listed object that
 * cannot be represented or loaded is held ({@link HeldObject}): it stays in the complete
 * inventory, publishes nothing and keeps whatever was materialized of it; unless its load could
 * not reach the upstream and the upstream still does not answer after the loads, which fails the
 * scan like a listing failure.
 */
final class UpstreamScan {
  private final CatalogClient client;
  private final NamespaceSelection selection;
  private final int concurrency;
  private final String upstreamCatalogName;
  private final ReconcileProgress progress;
  private final MetadataStash stash;

  /**
   * @param stash keeps the full metadata of the tables the run will capture ({@link
   *     MetadataStash}), so capture need not load them again
   */
  UpstreamScan(CatalogClient client, NamespaceSelection selection, int concurrency,
      String upstreamCatalogName, ReconcileProgress progress, MetadataStash stash) {
    this.client = client;
    this.selection = selection;
    this.concurrency = concurrency;
    this.upstreamCatalogName = upstreamCatalogName;
    this.progress = progress;
    this.stash = stash;
  }

  /**
   * The complete inventory.
   *
   * @throws IcegateException the upstream failure (NOT_FOUND, INTEGRATION_NOT_USABLE,
   *     UPSTREAM_FAILED, UPSTREAM_UNAVAILABLE)
   */
  Inventory scan() {
    ExecutorService pool = Executors.newFixedThreadPool(concurrency, r -> {
      Thread t = new Thread(r, "reconcile-scan");
      t.setDaemon(true);
      return t;
    });
    try {
      List<NamespacePath> selected = selectedNamespaces(pool);
      boolean views = client.capabilities().supportsViews();
      Set<CatalogObjectKind> kinds = views ? EnumSet.allOf(CatalogObjectKind.class)
          : EnumSet.of(CatalogObjectKind.TABLE);
      List<HeldObject> held = new ArrayList<>();
      List<NamespacePath> representable = new ArrayList<>();
      Map<NamespacePath, String> unrepresentable = new HashMap<>();
      for (NamespacePath ns : selected) {
        String problem = RepresentationLimits.namespaceProblem(ns.segments());
        if (problem == null) {
          representable.add(ns);
        } else {
          unrepresentable.put(ns, problem);
          held.add(HeldObject.of("namespace", ns.segments(), null, ErrorCode.NOT_REPRESENTABLE,
              problem, null));
        }
      }
      // Every selected namespace is listed, representable or not: discovery is complete only
      // when all were, and a listing failure stays a discovery failure that publishes nothing.
      List<CatalogObjectRef> objects = new ArrayList<>();
      for (List<CatalogObjectRef> listed : all(pool, selected,
          ns -> client.listObjects(ns, kinds))) {
        objects.addAll(listed);
      }
      List<CatalogObjectRef> loadable = new ArrayList<>();
      for (CatalogObjectRef ref : objects) {
        String problem = unrepresentable.containsKey(ref.namespace())
            ? "its namespace cannot be: " + unrepresentable.get(ref.namespace())
            : RepresentationLimits.nameProblem(ref.kind(), ref.name());
        if (problem == null) {
          loadable.add(ref);
        } else {
          held.add(HeldObject.of(kindLabel(ref), ref.namespace().segments(), ref.name(),
              ErrorCode.NOT_REPRESENTABLE, problem, null));
        }
      }
      ViewSqlRewriter viewSql = viewSqlRewriter(loadable);
      Queue<String> viewWarnings = new ConcurrentLinkedQueue<>();
      List<DesiredRelation> loaded = new ArrayList<>();
      for (Object result : all(pool, loadable,
          ref -> loadOrHold(ref, viewSql, viewWarnings::add))) {
        if (result instanceof HeldObject h) {
          held.add(h);
        } else {
          loaded.add((DesiredRelation) result);
        }
      }
      confirmUpstreamAnswers(held, loadable.size());
      List<String> warnings = new ArrayList<>();
      warnUnmatchedIncludes(selected, warnings);
      viewWarnings.stream().sorted().forEach(warnings::add); // loads finish in any order
      List<DesiredRelation> relations = holdSharedPaths(disambiguate(loaded, warnings), held);
      return new Inventory(representable.stream().map(NamespacePath::segments).toList(),
          relations, held, warnings);
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * An object whose load could not reach the upstream is held, which is right when one load
   * fails; but an upstream that went away during the loads (a real Unity 0.6.0 killed mid-run:
   * every later table held UPSTREAM_UNAVAILABLE, one by one, and the run succeeded) is a failure
   * of the run: the connection is checked once more, and when that fails too the scan fails
   * (retryable, nothing published) instead of holding the objects it could not load.
   */
  private void confirmUpstreamAnswers(List<HeldObject> held, int loads) {
    long unreachable = held.stream().filter(h -> h.code() == ErrorCode.UPSTREAM_UNAVAILABLE)
        .count();
    if (unreachable == 0) {
      return;
    }
    try {
      client.validate();
    } catch (CatalogAccessException e) {
      throw new CatalogAccessException(e.code(), "the upstream stopped answering during "
          + "discovery (" + unreachable + " of " + loads + " loads failed): " + e.detail(), e);
    }
  }

  private List<NamespacePath> selectedNamespaces(ExecutorService pool) {
    List<NamespacePath> selected = new ArrayList<>();
    List<NamespacePath> level = List.of(NamespacePath.root());
    while (!level.isEmpty()) {
      List<NamespacePath> next = new ArrayList<>();
      for (List<NamespacePath> children : all(pool, level, client::listNamespaces)) {
        for (NamespacePath child : children) {
          if (!selection.mayContainSelected(child)) {
            continue;
          }
          next.add(child);
          if (selection.selects(child)) {
            selected.add(child);
          }
        }
      }
      level = next;
    }
    selected.sort(NamespaceOrder.INSTANCE);
    return selected;
  }

  /**
   * An include path under which nothing was selected is almost always a typo or a case mismatch
   * (paths are case-sensitive): the run still succeeds, and the report says so.
   */
  private void warnUnmatchedIncludes(List<NamespacePath> selected, List<String> warnings) {
    for (NamespacePath include : selection.includeNamespaces()) {
      List<String> prefix = include.segments();
      boolean matched = selected.stream().anyMatch(ns -> ns.segments().size() >= prefix.size()
          && ns.segments().subList(0, prefix.size()).equals(prefix));
      if (!matched) {
        warnings.add("include path " + String.join(".", prefix) + " selects no upstream "
            + "namespace: it does not exist upstream (paths are case-sensitive) or is excluded");
      }
    }
  }

  /**
   * Issue 26: when the provider says how its views' SQL names objects (Unity's three-level
   * names), views are pointed at what this Overlay materializes: every object listed in the
   * selected namespaces, held ones included (a held object keeps its earlier materialization, so
   * a view naming it is not rewritten back and forth while it is held).
   */
  private ViewSqlRewriter viewSqlRewriter(List<CatalogObjectRef> listed) {
    return client.viewSqlNames().map(names -> new ViewSqlRewriter(names,
        new MaterializedNames(listed.stream().map(ref -> {
          List<String> path = new ArrayList<>(ref.namespace().segments());
          path.add(ref.name());
          return path;
        }).toList()))).orElse(null);
  }

  /**
   * The desired relation of {@code ref}, or the {@link HeldObject} it is when it cannot be loaded
   * this run (its metadata or its storage credentials failed) or cannot be represented (a type
   * with no Iceberg counterpart, no location, invalid metadata).
   */
  private Object loadOrHold(CatalogObjectRef ref, ViewSqlRewriter viewSql,
      Consumer<String> warnings) {
    List<String> ns = ref.namespace().segments();
    Object result;
    try {
      if (ref.kind() == CatalogObjectKind.TABLE) {
        LoadedTable loaded = client.loadTableWithMetadata(ref.namespace(), ref.name());
        try {
          DesiredRelation relation = UpstreamDefinitions.table(loaded.table());
          stash.offer(relation, loaded);
          result = relation;
        } catch (IcegateException e) {
          result = HeldObject.of("table", ns, ref.name(), e, ResourceKind.TABLE.tag() + "/"
              + loaded.table().identity().value());
        }
      } else {
        UpstreamView view = client.loadView(ref.namespace(), ref.name());
        try {
          result = UpstreamDefinitions.view(view, upstreamCatalogName, viewSql, warnings);
        } catch (IcegateException e) {
          result = HeldObject.of("view", ns, ref.name(), e, ResourceKind.VIEW.tag() + "/"
              + view.identity().value());
        }
      }
    } catch (CatalogAccessException e) {
      result = HeldObject.classify(kindLabel(ref), ns, ref.name(), e);
    }
    if (result instanceof DesiredRelation relation) {
      String problem = RepresentationLimits.relationProblem(relation);
      if (problem != null) {
        result = HeldObject.of(kindLabel(ref), ns, ref.name(), ErrorCode.NOT_REPRESENTABLE,
            problem, relation.identityKey());
      }
    }
    progress.add(ReconcileCount.LOADED, 1);
    return result;
  }

  private static String kindLabel(CatalogObjectRef ref) {
    return ref.kind() == CatalogObjectKind.TABLE ? "table" : "view";
  }

  /**
   * Two upstream objects at one path (a table and a view of one name: Iceberg forbids it, a
   * provider may still list it) cannot both take it: both are held, so neither replaces the other
   * back and forth between runs.
   */
  private static List<DesiredRelation> holdSharedPaths(List<DesiredRelation> relations,
      List<HeldObject> held) {
    Map<List<Object>, List<DesiredRelation>> byPath = new HashMap<>();
    for (DesiredRelation r : relations) {
      byPath.computeIfAbsent(List.of(r.namespace(), r.name()), k -> new ArrayList<>()).add(r);
    }
    List<DesiredRelation> out = new ArrayList<>(relations.size());
    for (DesiredRelation r : relations) {
      if (byPath.get(List.of(r.namespace(), r.name())).size() == 1) {
        out.add(r);
      } else {
        String kind = r.kind() == ResourceKind.TABLE ? "table" : "view";
        held.add(HeldObject.of(kind, r.namespace(), r.name(), ErrorCode.UPSTREAM_OBJECT_INVALID,
            "the upstream lists a table and a view at this path", r.identityKey()));
      }
    }
    return out;
  }

  /**
   * Seed 000: two upstream paths sharing one stable id both use their path identity, and the
   * report says so.
   */
  private static List<DesiredRelation> disambiguate(List<DesiredRelation> loaded,
      List<String> warnings) {
    Map<String, List<DesiredRelation>> byIdentity = new HashMap<>();
    for (DesiredRelation r : loaded) {
      if (r.identityStable()) {
        byIdentity.computeIfAbsent(r.identityKey(), k -> new ArrayList<>()).add(r);
      }
    }
    Set<String> shared = new LinkedHashSet<>();
    byIdentity.forEach((key, group) -> {
      if (group.size() > 1) {
        shared.add(key);
        warnings.add("upstream " + group.stream().map(DesiredRelation::displayPath).sorted()
            .toList() + " share the stable identity " + group.get(0).externalId()
            + "; each is materialized with its path identity");
      }
    });
    List<DesiredRelation> out = new ArrayList<>(loaded.size());
    for (DesiredRelation r : loaded) {
      out.add(r.identityStable() && shared.contains(r.identityKey()) ? r.withPathIdentity() : r);
    }
    return out;
  }

  /** {@code call} over every input on the pool, results in input order; the first failure wins. */
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
      futures.forEach(f -> f.cancel(true));
      throw new IcegateException(ErrorCode.UPSTREAM_UNAVAILABLE, null, "interrupted");
    } catch (ExecutionException e) {
      futures.forEach(f -> f.cancel(true));
      Throwable cause = e.getCause();
      if (cause instanceof CatalogAccessException access) {
        throw UpstreamFailures.toIcegate(access, "object");
      }
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException(cause);
    }
    return out;
  }
}
