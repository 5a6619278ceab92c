package io.icegate.core.repo;

import io.icegate.core.model.Resource;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import java.util.Optional;

/**
 * The integrity rules the resource repositories need from the overlay domain's stored state
 * (seed 000, "Catalog overlay"), asked inside the mutating transaction: a claimed Namespace is not
 * dropped or moved, and a deleted Table or View takes what is kept beside it with it.
 *
 * <p>That state (namespace claims, the managed-relation index, definitions, capture pointers,
 * validation records) is written by the overlay-store module, which implements this interface; the
 * repositories are generic and must not import it (core sits below it). Every {@link Repositories}
 * is given an implementation, and there is none that does nothing in main code, so no delete or
 * move path can skip these checks.
 */
public interface ContributionRules {

  /**
   * The id of an Overlay claiming Namespace {@code namespaceId}, if any: what a refused drop or
   * move names. A serializable read, so a concurrent claim and drop conflict.
   */
  Optional<String> claimingOverlay(ReadTransaction tx, String accountId, String namespaceId);

  /**
   * Removes what belongs to {@code relation}, a Table or View deleted in {@code tx}: its stored
   * definition, capture pointer, validation records and, when managed, its index entry. Harmless
   * for a local relation.
   */
  void forget(Transaction tx, Resource<?> relation);
}
