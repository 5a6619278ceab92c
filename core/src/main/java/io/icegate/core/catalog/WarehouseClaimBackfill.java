package io.icegate.core.catalog;

import com.apple.foundationdb.Range;
import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.repo.Repositories;
import io.icegate.core.repo.ResourceCodec;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.ReadTransaction.Direction;
import io.icegate.core.store.Transaction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the warehouse claims of Catalogs stored before claims existed ({@link WarehouseClaims}),
 * once per start, before the server serves. Idempotent: a Catalog already claimed is left as it
 * is. An overlap between such Catalogs of different accounts is not refused (both Catalogs exist
 * and keep working): it is logged as a warning naming both Catalogs' ids, and both claims are
 * written, so from then on neither warehouse can be claimed by a third account, and the operator
 * can delete one of them. A stored warehouse with a {@code ..} segment claims nothing (the gateway
 * confines such a Catalog to no location at all).
 */
public final class WarehouseClaimBackfill {
  private static final Logger LOG = LoggerFactory.getLogger(WarehouseClaimBackfill.class);
  /** Catalogs per transaction. */
  private static final int BATCH = 100;

  private final Repositories repositories;
  private final ResourceCodec<Catalog> codec = new ResourceCodec<>(Catalog.class);

  public WarehouseClaimBackfill(Repositories repositories) {
    this.repositories = repositories;
  }

  /**
   * What a run did.
   *
   * @param claimed claims written (Catalogs that had none)
   * @param overlaps one line per legacy overlap: {@code catalog C (account A) overlaps catalog D
   *     (account B)}
   */
  public record Report(int claimed, List<String> overlaps) {}

  /** Claims every unclaimed Catalog's warehouse, account by account. */
  public Report run() {
    int claimed = 0;
    List<String> overlaps = new ArrayList<>();
    for (String accountId : accountIds()) {
      byte[] from = null;
      do {
        Batch batch = fill(accountId, from);
        claimed += batch.claimed;
        overlaps.addAll(batch.overlaps);
        from = batch.next;
      } while (from != null);
    }
    for (String overlap : overlaps) {
      LOG.warn("warehouse claims: {} of another account (both were stored before warehouses"
          + " were claimed; both keep working: delete one to end the overlap)", overlap);
    }
    if (claimed > 0) {
      LOG.info("warehouse claims: claimed the warehouses of {} catalog(s) stored before claims",
          claimed);
    }
    return new Report(claimed, List.copyOf(overlaps));
  }

  private List<String> accountIds() {
    Range range = KeyLayout.resources(KeyLayout.ROOT_PARTITION, ResourceKind.ACCOUNT).range();
    return repositories.store().read(tx -> {
      List<String> ids = new ArrayList<>();
      byte[] begin = range.begin;
      while (true) {
        List<KeyValue> page = tx.getRange(begin, range.end, 1000, Direction.FORWARD);
        for (KeyValue kv : page) {
          ids.add(KeyLayout.resources(KeyLayout.ROOT_PARTITION, ResourceKind.ACCOUNT)
              .unpack(kv.key()).getString(0));
        }
        if (page.size() < 1000) {
          return ids;
        }
        byte[] last = page.get(page.size() - 1).key();
        begin = Arrays.copyOf(last, last.length + 1);
      }
    });
  }

  /** Claims up to a batch of the account's Catalogs from key {@code from} (null: the first). */
  private Batch fill(String accountId, byte[] from) {
    return repositories.store().run(tx -> {
      Batch batch = new Batch();
      // Read in this transaction: an account deletion committing meanwhile conflicts with it,
      // and a deleted account's Catalogs claim nothing (its cleanup may already have run).
      if (tx.get(KeyLayout.resource(ResourceRef.account(accountId))) == null) {
        return batch;
      }
      Range records = KeyLayout.resources(accountId, ResourceKind.CATALOG).range();
      List<KeyValue> page = tx.getRange(from == null ? records.begin : from, records.end, BATCH,
          Direction.FORWARD);
      for (KeyValue kv : page) {
        batch.claim(tx, accountId, kv);
      }
      if (page.size() == BATCH) {
        byte[] last = page.get(page.size() - 1).key();
        batch.next = Arrays.copyOf(last, last.length + 1);
      }
      return batch;
    });
  }

  /** One transaction's worth of an account's Catalogs. */
  private final class Batch {
    int claimed;
    List<String> overlaps = new ArrayList<>();
    byte[] next;

    void claim(Transaction tx, String accountId, KeyValue record) {
      String catalogId = KeyLayout.resources(accountId, ResourceKind.CATALOG)
          .unpack(record.key()).getString(0);
      WarehousePath normal = WarehouseClaims.normal(codec.read(record.value()).spec().warehouse());
      if (normal == null) {
        return;
      }
      Tuple path = WarehouseClaims.tuple(normal);
      byte[] key = KeyLayout.warehouseClaim(path, accountId, catalogId);
      if (tx.get(key) != null) {
        return;
      }
      for (int n = 2; n <= path.size(); n++) {
        Tuple prefix = Tuple.fromList(path.getItems().subList(0, n));
        Range range = n == path.size() ? KeyLayout.warehouseClaimsUnder(prefix).range()
            : KeyLayout.warehouseClaimsOn(prefix).range();
        for (String[] other : WarehouseClaims.claimants(tx, range, accountId)) {
          overlaps.add("catalog " + catalogId + " (account " + accountId + ") overlaps catalog "
              + other[1] + " (account " + other[0] + ")");
        }
      }
      tx.set(key, new byte[0]);
      claimed++;
    }
  }
}
