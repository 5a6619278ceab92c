package io.icegate.core.testing;

import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.catalog.WarehousePath;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.Resource;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.ReadTransaction;
import java.util.List;
import java.util.Map;

/**
 * Invariants of warehouse claims, part of {@link InvariantChecker}: every claim names a live
 * Catalog of its account whose warehouse has the claim's normal form. So a Catalog's delete, its
 * replacement and its account's deletion left none of its claims. (A Catalog without a claim is
 * not a violation: tests write Catalogs straight through the repositories, as Catalogs stored
 * before claims were.)
 */
final class ClaimInvariants {
  private ClaimInvariants() {}

  static void check(ReadTransaction tx, Map<String, Resource<?>> byId, List<String> violations) {
    for (KeyValue kv : tx.getRange(KeySubspace.WAREHOUSE_CLAIMS.range().begin,
        KeySubspace.WAREHOUSE_CLAIMS.range().end)) {
      List<Object> items = KeySubspace.WAREHOUSE_CLAIMS.unpack(kv.key()).getItems();
      int end = items.indexOf(null);
      String account = (String) items.get(end + 1);
      String catalogId = (String) items.get(end + 2);
      Resource<?> catalog = byId.get(catalogId);
      Tuple path = Tuple.fromList(items.subList(0, end));
      if (catalog == null || !(catalog.spec() instanceof Catalog spec)
          || !catalog.accountId().equals(account)) {
        violations.add("warehouse claim " + path + " of missing catalog " + catalogId
            + " (account " + account + ")");
      } else if (!path.equals(normal(spec.warehouse()))) {
        violations.add("warehouse claim " + path + " of catalog " + catalogId
            + " is not its warehouse " + spec.warehouse());
      }
    }
  }

  private static Tuple normal(String warehouse) {
    WarehousePath p = warehouse == null ? null : WarehousePath.of(warehouse);
    return p == null ? null : Tuple.from(p.scheme(), p.authority()).addAll(p.segments());
  }
}
