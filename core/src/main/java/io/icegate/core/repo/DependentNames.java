package io.icegate.core.repo;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceSpec;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.ReadConsistency;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.ReadTransaction.Direction;
import io.icegate.core.store.Transaction;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Names what still depends on a Catalog or an Integration whose delete the dependency counters
 * refused (DEPENDENCY_EXISTS), so the answer tells the operator what to delete first
 * instead of a bare count. The counters only count; the names are read here, on the refusal path
 * only, in the refused delete's transaction (so they agree with the counts). Display names and ids
 * only: never a record's settings.
 */
public final class DependentNames {
  /** How many dependents of one kind a refusal names; the rest are counted. */
  static final int SHOWN = 5;

  private DependentNames() {}

  /**
   * {@link ResourceRepository#delete(Transaction, String, ExpectedGeneration)} of a Catalog or an
   * Integration, whose refusal for dependents (DEPENDENCY_EXISTS) names them.
   */
  public static <S extends ResourceSpec> Resource<S> delete(Transaction tx,
      Repositories repositories, ResourceRepository<S> owners, String id,
      ExpectedGeneration expected) {
    try {
      return owners.delete(tx, id, expected);
    } catch (IcegateException e) {
      if (e.code() != ErrorCode.DEPENDENCY_EXISTS) {
        throw e;
      }
      Resource<S> owner = owners.require(tx, id);
      throw switch (owner.kind()) {
        case CATALOG -> ofCatalog(tx, repositories, owner, e);
        case INTEGRATION -> ofIntegration(tx, repositories, owner, e);
        default -> e;
      };
    }
  }

  /**
   * The refusal of deleting Catalog {@code catalog}: the Overlays targeting it and the top-level
   * namespaces it holds, a few of each by name (ids of the Overlays in the details).
   */
  static IcegateException ofCatalog(ReadTransaction tx, Repositories repositories,
      Resource<?> catalog, IcegateException refused) {
    String account = catalog.accountId();
    List<String> clauses = new ArrayList<>();
    List<String> details = new ArrayList<>();
    List<Resource<CatalogOverlay>> overlays = overlays(tx, repositories, account,
        o -> o.catalogId().equals(catalog.id()));
    if (!overlays.isEmpty()) {
      clauses.add("is the target of " + overlayList(overlays, details));
    }
    long namespaces = repositories.counters()
        .read(tx, catalog.ref(), ResourceKind.NAMESPACE, ReadConsistency.STRONG);
    if (namespaces > 0) {
      List<String> top = topNamespaces(tx, account, catalog.id());
      details.addAll(top.stream().map(n -> "namespace " + quoted(n)).toList());
      clauses.add("holds " + namespaces + " namespace(s), among them " + listed(top, top.size()));
    }
    // an Overlay's catalogId cannot change (IMMUTABLE_MEMBER): deleting it is the only way
    String advice = overlays.isEmpty()
        ? "drop the namespaces (with their tables and views) first"
        : namespaces == 0 ? "delete the overlays first"
        : "delete the overlays and drop the namespaces (with their tables and views) first";
    return refusal(refused, catalog, clauses, advice, details);
  }

  /** The refusal of deleting Integration {@code integration}: the Overlays bound to it. */
  static IcegateException ofIntegration(ReadTransaction tx, Repositories repositories,
      Resource<?> integration, IcegateException refused) {
    List<String> details = new ArrayList<>();
    List<Resource<CatalogOverlay>> overlays = overlays(tx, repositories,
        integration.accountId(), o -> o.integrationId().equals(integration.id()));
    List<String> clauses = overlays.isEmpty()
        ? List.of() : List.of("is the source of " + overlayList(overlays, details));
    return refusal(refused, integration, clauses,
        "delete them first, or delete the integration with cascade=true", details);
  }

  private static IcegateException refusal(IcegateException refused, Resource<?> owner,
      List<String> clauses, String advice, List<String> details) {
    if (clauses.isEmpty()) {
      return refused; // counted, yet nothing here to name: the counted refusal says what it can
    }
    String message = owner.kind().label() + " " + quoted(owner.name()) + " "
        + String.join(" and ", clauses) + "; " + advice;
    return new IcegateException(ErrorCode.DEPENDENCY_EXISTS, owner.kind(), message, null, details);
  }

  private static String overlayList(List<Resource<CatalogOverlay>> overlays,
      List<String> details) {
    List<String> names = new ArrayList<>();
    for (Resource<CatalogOverlay> overlay : overlays.subList(0, Math.min(SHOWN, overlays.size()))) {
      names.add(overlay.name());
      details.add("overlay " + quoted(overlay.name()) + " (id " + overlay.id() + ")");
    }
    return "overlay(s) " + listed(names, overlays.size());
  }

  /** The account's Overlays whose spec {@code keep} accepts, in name order (ids are random). */
  private static List<Resource<CatalogOverlay>> overlays(ReadTransaction tx,
      Repositories repositories, String account, Predicate<CatalogOverlay> keep) {
    ResourceRepository<CatalogOverlay> all = repositories.overlays(account);
    var range = KeyLayout.resources(account, ResourceKind.OVERLAY).range();
    List<Resource<CatalogOverlay>> found = new ArrayList<>();
    for (KeyValue kv : ReadConsistency.STRONG.view(tx).getRange(range.begin, range.end)) {
      Resource<CatalogOverlay> overlay = all.codec().read(kv.value());
      if (keep.test(overlay.spec())) {
        found.add(overlay);
      }
    }
    found.sort(java.util.Comparator.comparing(Resource::name));
    return found;
  }

  /** The first {@link #SHOWN} top-level namespace names of the catalog, in name order. */
  private static List<String> topNamespaces(ReadTransaction tx, String account, String catalogId) {
    var names = KeyLayout.names(account, ResourceKind.NAMESPACE,
        NameScope.inCatalog(catalogId, List.of()));
    var range = names.range();
    return ReadConsistency.STRONG.view(tx)
        .getRange(range.begin, range.end, SHOWN, Direction.FORWARD).stream()
        .map(kv -> names.unpack(kv.key()).getString(0))
        .toList();
  }

  /** {@code 'a', 'b'}, or {@code 'a', 'b' and 3 more} when {@code total} exceeds the names. */
  private static String listed(List<String> names, long total) {
    String shown = String.join(", ", names.stream().map(DependentNames::quoted).toList());
    return total > names.size() ? shown + " and " + (total - names.size()) + " more" : shown;
  }

  /**
   * {@code name} in single quotes, a quote or backslash in it escaped with a backslash and any
   * other invisible character (control, format such as a right-to-left override) as a Java-style
   * backslash-u escape: names may hold quotes, and one such as {@code o', 'p} read as two names.
   * Public for the admin API's audit lines, which name tokens the same way.
   */
  public static String quoted(String name) {
    StringBuilder out = new StringBuilder(name.length() + 2).append('\'');
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '\'' || c == '\\') {
        out.append('\\').append(c);
      } else if (Character.isISOControl(c) || Character.getType(c) == Character.FORMAT) {
        out.append(String.format("\\u%04X", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('\'').toString();
  }
}
