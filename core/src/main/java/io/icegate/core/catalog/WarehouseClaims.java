package io.icegate.core.catalog;

import com.apple.foundationdb.Range;
import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.durability.CleanupStep;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.repo.ResourceCodec;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.ReadTransaction.Direction;
import io.icegate.core.store.Transaction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Warehouse claims ({@link KeySubspace#WAREHOUSE_CLAIMS}): a Catalog's warehouse may not be equal
 * to, contain or lie inside the warehouse of a Catalog of another account. The Iceberg routes
 * accept any table location inside a Catalog's warehouse, a registered one included, and purge
 * its files with the gateway's own storage access; without this, one account's admin could reach
 * another's tables by giving a Catalog a warehouse over them. Catalogs of one account may overlap:
 * the same admin controls both.
 *
 * <p>Every check reads in the transaction that writes the claim, with ordinary (conflicting)
 * reads, so two creates racing for overlapping warehouses conflict and the second one to commit
 * re-runs and is refused. A Catalog without a warehouse claims nothing.
 */
public final class WarehouseClaims {
  private static final byte[] EMPTY = new byte[0];
  private static final int PAGE = 1000;

  private WarehouseClaims() {}

  /**
   * Claims {@code warehouse} for Catalog {@code catalogId} of account {@code accountId}, in the
   * transaction that creates the Catalog. A repeated claim of the same Catalog writes the same key.
   *
   * @throws IcegateException WAREHOUSE_OVERLAP (naming only {@code warehouse}) when a Catalog of
   *     another account claims it, an ancestor of it or a path inside it; INVALID_ARGUMENT when it
   *     has no normal form (a {@code ..} segment)
   */
  public static void claim(Transaction tx, String accountId, String catalogId, String warehouse) {
    if (warehouse == null) {
      return;
    }
    Tuple path = path(warehouse);
    if (holdsOtherThan(tx, accountId, path)) {
      throw new IcegateException(ErrorCode.WAREHOUSE_OVERLAP, ResourceKind.CATALOG, warehouse);
    }
    tx.set(KeyLayout.warehouseClaim(path, accountId, catalogId), EMPTY);
  }

  /** Removes the claim of Catalog {@code catalogId} (its delete, or its retirement by a replace). */
  public static void release(Transaction tx, String accountId, String catalogId,
      String warehouse) {
    if (warehouse == null) {
      return;
    }
    WarehousePath normal = WarehousePath.of(warehouse);
    if (normal != null) {
      tx.clear(KeyLayout.warehouseClaim(tuple(normal), accountId, catalogId));
    }
  }

  /**
   * Whether a Catalog of an account other than {@code accountId} claims {@code path}, one of its
   * ancestors or a path inside it.
   */
  static boolean holdsOtherThan(ReadTransaction tx, String accountId, Tuple path) {
    for (int n = 2; n < path.size(); n++) { // (scheme, authority) is the shortest ancestor
      Range on = KeyLayout.warehouseClaimsOn(Tuple.fromList(path.getItems().subList(0, n)))
          .range();
      if (!claimants(tx, on, accountId).isEmpty()) {
        return true;
      }
    }
    return !claimants(tx, KeyLayout.warehouseClaimsUnder(path).range(), accountId).isEmpty();
  }

  /**
   * The {@code (account id, catalog id)} of the first claims in {@code range} whose account is not
   * {@code accountId}, at most a few: one is enough to refuse, a few name legacy overlaps.
   */
  static List<String[]> claimants(ReadTransaction tx, Range range, String accountId) {
    List<String[]> found = new ArrayList<>();
    byte[] begin = range.begin;
    while (true) {
      List<KeyValue> page = tx.getRange(begin, range.end, PAGE, Direction.FORWARD);
      for (KeyValue kv : page) {
        List<Object> items = KeySubspace.WAREHOUSE_CLAIMS.unpack(kv.key()).getItems();
        int end = items.indexOf(null);
        String account = (String) items.get(end + 1);
        if (!account.equals(accountId)) {
          found.add(new String[] {account, (String) items.get(end + 2)});
          if (found.size() >= 5) {
            return found;
          }
        }
      }
      if (page.size() < PAGE) {
        return found;
      }
      byte[] last = page.get(page.size() - 1).key();
      begin = Arrays.copyOf(last, last.length + 1);
    }
  }

  /**
   * The account-deletion step releasing the claims of the account's Catalogs, at most {@code
   * maxKeys} per call. Runs before the account partition (and the Catalog records, which name the
   * warehouses) is cleared; a claim already released counts nothing, so the step ends.
   */
  public static CleanupStep accountCleanup() {
    return (tx, accountId, maxKeys) -> {
      ResourceCodec<Catalog> codec = new ResourceCodec<>(Catalog.class);
      Range records = KeyLayout.resources(accountId, ResourceKind.CATALOG).range();
      int removed = 0;
      byte[] begin = records.begin;
      while (removed < maxKeys) {
        List<KeyValue> page = tx.getRange(begin, records.end, PAGE, Direction.FORWARD);
        for (KeyValue kv : page) {
          String catalogId =
              KeyLayout.resources(accountId, ResourceKind.CATALOG).unpack(kv.key()).getString(0);
          WarehousePath normal = normal(codec.read(kv.value()).spec().warehouse());
          byte[] key = normal == null ? null
              : KeyLayout.warehouseClaim(tuple(normal), accountId, catalogId);
          if (key != null && tx.get(key) != null) {
            tx.clear(key);
            if (++removed >= maxKeys) {
              return removed;
            }
          }
        }
        if (page.size() < PAGE) {
          break;
        }
        byte[] last = page.get(page.size() - 1).key();
        begin = Arrays.copyOf(last, last.length + 1);
      }
      return removed;
    };
  }

  /** The normal form of a stored warehouse, or null when it has none (none, or a '..' one). */
  static WarehousePath normal(String warehouse) {
    return warehouse == null ? null : WarehousePath.of(warehouse);
  }

  /** The key elements of {@code warehouse}'s normal form; refuses one without. */
  static Tuple path(String warehouse) {
    WarehousePath normal = WarehousePath.of(warehouse);
    if (normal == null) {
      throw IcegateException.invalidArgument("warehouse must not have a '..' segment");
    }
    return tuple(normal);
  }

  static Tuple tuple(WarehousePath path) {
    return Tuple.from(path.scheme(), path.authority()).addAll(path.segments());
  }
}
