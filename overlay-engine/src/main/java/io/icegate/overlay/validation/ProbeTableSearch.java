package io.icegate.overlay.validation;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.model.CatalogObjectKind;
import io.icegate.access.model.CatalogObjectRef;
import io.icegate.access.model.NamespacePath;
import io.icegate.overlay.discovery.NamespaceOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Finds the table validation probes when the request names none: a breadth-first walk of the
 * namespace tree in sorted order (namespaces by {@link NamespaceOrder}, tables by name), so
 * repeated validations ask the same tables. Each table found is asked for credentials until one
 * answers for itself; a table whose answer is about that table only ({@link
 * VendAttempt#skipCode()}: nothing vended, gone, unsupported kind, not readable) is passed over.
 * Bounded twice: {@code maxNamespaces} namespace listings and {@link
 * IntegrationValidator#MAX_PROBED_TABLES} tables asked.
 *
 * <p>Why not simply the first table: in Unity's shipped catalog that is a {@code file:} table,
 * which vends nothing, so every Integration whose S3 tables vend fine would fail validation.
 *
 * <p>One search per validation; not thread-safe.
 */
final class ProbeTableSearch {
  private final CatalogClient client;
  private final Function<CatalogObjectRef, VendAttempt> vend;
  private final int maxNamespaces;
  private final List<SkippedTable> skipped = new ArrayList<>();
  private int topLevel;
  private int searched;

  /**
   * @param vend asks the upstream for one table's credentials
   */
  ProbeTableSearch(CatalogClient client, Function<CatalogObjectRef, VendAttempt> vend,
      int maxNamespaces) {
    this.client = client;
    this.vend = vend;
    this.maxNamespaces = maxNamespaces;
  }

  /** The table chosen and the answer it gave. */
  record Probe(CatalogObjectRef table, VendAttempt attempt) {}

  /**
   * Walks and asks until a table answers for itself.
   *
   * @return that table and its answer; {@code null} when no table was found, or every table asked
   *     was passed over ({@link #skipped()}), or a bound was reached first
   * @throws CatalogAccessException when a listing fails (the discovery check's failure)
   */
  Probe run() {
    Deque<NamespacePath> queue = new ArrayDeque<>(sorted(client.listNamespaces(
        NamespacePath.root())));
    topLevel = queue.size();
    while (!queue.isEmpty() && searched < maxNamespaces && !tableBoundReached()) {
      NamespacePath namespace = queue.removeFirst();
      searched++;
      List<CatalogObjectRef> tables = new ArrayList<>(
          client.listObjects(namespace, Set.of(CatalogObjectKind.TABLE)));
      tables.sort(Comparator.comparing(CatalogObjectRef::name));
      for (CatalogObjectRef table : tables) {
        if (tableBoundReached()) {
          return null;
        }
        VendAttempt attempt = vend.apply(table);
        String skipCode = attempt.skipCode();
        if (skipCode == null) {
          return new Probe(table, attempt);
        }
        skipped.add(new SkippedTable(table, skipCode, reason(attempt)));
      }
      queue.addAll(sorted(client.listNamespaces(namespace)));
    }
    return null;
  }

  /** Tables asked and passed over, in the order asked. */
  List<SkippedTable> skipped() {
    return List.copyOf(skipped);
  }

  /** Namespaces at the root of the upstream. */
  int topLevel() {
    return topLevel;
  }

  /** Namespaces whose tables were listed. */
  int searched() {
    return searched;
  }

  /** Whether {@link IntegrationValidator#MAX_PROBED_TABLES} tables were asked and passed over. */
  boolean tableBoundReached() {
    return skipped.size() >= IntegrationValidator.MAX_PROBED_TABLES;
  }

  private static String reason(VendAttempt attempt) {
    return attempt instanceof VendAttempt.Failed failed ? failed.failure().getMessage()
        : "the catalog vended no storage credentials for it";
  }

  private static List<NamespacePath> sorted(List<NamespacePath> namespaces) {
    List<NamespacePath> out = new ArrayList<>(namespaces);
    out.sort(NamespaceOrder.INSTANCE);
    return out;
  }
}
