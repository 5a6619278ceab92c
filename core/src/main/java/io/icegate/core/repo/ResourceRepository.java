package io.icegate.core.repo;

import io.icegate.core.model.NameScope;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceSpec;
import io.icegate.core.paging.Page;
import io.icegate.core.paging.PageRequest;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.ReadConsistency;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import java.util.Optional;

/**
 * The one generic repository of resources of one kind in one account (accounts themselves: the
 * server-wide partition). Obtain instances from {@link Repositories}; they are cheap and
 * thread-safe.
 *
 * <p><b>Two forms of every operation.</b> Methods taking a {@link Transaction} run inside the
 * caller's store transaction, so several operations compose atomically (an Iceberg multi-table
 * commit, a table rename across namespaces, an overlay publishing many tables); they may run more
 * than once when the store retries the body. Methods without one run their own {@link KvStore#run}.
 *
 * <p><b>What every mutation asserts, in its own transaction.</b> Creates, updates and renames
 * assert that no deletion fence is installed on the account or (for namespaces, tables and views)
 * on the catalog ({@code FENCED}); creates below an account assert that its record exists and that
 * the parent catalog exists ({@code NOT_FOUND}); tables and views assert their namespace exists.
 * All of these are serializable reads, so a concurrent delete conflicts instead of slipping past.
 * Prerequisite reads go to the store, never to a cache (seed 000, "Mutation reads on raw stores").
 *
 * <p><b>Errors.</b> Every rejection is an {@link io.icegate.core.error.IcegateException} with a
 * code of {@link io.icegate.core.error.ErrorCode}; storage failures are the {@link
 * io.icegate.core.store.KvStoreException} subclasses from the store (the own-transaction forms
 * resolve a commit with unknown result by re-reading where they can, see each method).
 */
public final class ResourceRepository<S extends ResourceSpec> {

  ResourceRepository() {}

  /** The kind of resource this repository stores. */
  public ResourceKind kind() {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /**
   * The account this repository is bound to; for the account repository, {@code null} (accounts
   * live in the server-wide partition).
   */
  public String accountId() {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** The store the own-transaction forms run on. */
  public KvStore store() {
    throw new UnsupportedOperationException("not implemented yet");
  }

  // ---- create -------------------------------------------------------------------------------

  /**
   * Creates a resource with a new random id, failing when the name is taken.
   *
   * @return the stored resource, at generation 1 and configuration generation 1
   * @throws io.icegate.core.error.IcegateException ALREADY_EXISTS (the name, or for a table/view
   *     the relation name, is taken), NOT_FOUND (account, catalog or namespace missing), FENCED
   */
  public Resource<S> create(Transaction tx, S spec) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /**
   * Creates a resource under a caller-chosen id (a reserved identity, see {@link
   * io.icegate.core.durability.IdempotentCreates}), handling a taken name as {@code onConflict}
   * says. All checks run before any write, so a rejected create writes nothing.
   *
   * @param id the new resource's id; must not be in use
   * @throws io.icegate.core.error.IcegateException as {@link #create(Transaction, ResourceSpec)};
   *     with {@link OnConflict#REPLACE}, also whatever deleting the old resource raises (e.g.
   *     NAMESPACE_NOT_EMPTY, DEPENDENCY_EXISTS)
   */
  public CreateOutcome<S> create(Transaction tx, String id, S spec, OnConflict onConflict) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /**
   * Own-transaction create with a random id. A commit with unknown result is resolved by reading
   * the id back: present means committed.
   */
  public Resource<S> create(S spec) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Own-transaction form of {@link #create(Transaction, String, ResourceSpec, OnConflict)}. */
  public CreateOutcome<S> create(S spec, OnConflict onConflict) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  // ---- read ---------------------------------------------------------------------------------

  /** The resource with {@code id}, if any (a serializable read). */
  public Optional<Resource<S>> get(ReadTransaction tx, String id) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Own-transaction form of {@link #get(ReadTransaction, String)}. */
  public Optional<Resource<S>> get(String id) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /**
   * The resource with {@code id}.
   *
   * @throws io.icegate.core.error.IcegateException NOT_FOUND
   */
  public Resource<S> require(ReadTransaction tx, String id) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /**
   * The resource named {@code name} in {@code scope}, if any, through the name index.
   *
   * @param scope e.g. {@link NameScope#ACCOUNT_WIDE} for catalogs, the parent path for namespaces,
   *     the namespace path for tables and views
   */
  public Optional<Resource<S>> getByName(ReadTransaction tx, NameScope scope, String name) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Own-transaction form of {@link #getByName(ReadTransaction, NameScope, String)}. */
  public Optional<Resource<S>> getByName(NameScope scope, String name) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  // ---- update, rename -----------------------------------------------------------------------

  /**
   * Replaces the spec of resource {@code id} if it is still at the expected generation. A changed
   * name or scope moves the name-index entry in the same transaction (so update doubles as rename
   * and, for tables and views, as a move to another namespace of the catalog).
   *
   * @param change whether the update changes configuration (advances configurationGeneration too)
   * @return the stored resource at generation + 1
   * @throws io.icegate.core.error.IcegateException NOT_FOUND, GENERATION_MISMATCH, ALREADY_EXISTS
   *     (new name taken), INVALID_ARGUMENT (the spec belongs to another catalog), FENCED
   */
  public Resource<S> update(
      Transaction tx, String id, ExpectedGeneration expected, S spec, ChangeKind change) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /**
   * Own-transaction form of {@link #update(Transaction, String, ExpectedGeneration, ResourceSpec,
   * ChangeKind)}. A commit with unknown result is resolved by re-reading: the resource at the next
   * generation with the same spec means committed; at the expected generation means not committed
   * (retried); anything else is COMMIT_STATE_UNKNOWN.
   */
  public Resource<S> update(String id, ExpectedGeneration expected, S spec, ChangeKind change) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /**
   * Renames resource {@code id} to {@code name} in {@code scope} (a metadata change): the old
   * name-index entry is cleared and the new one written in the same transaction.
   *
   * @throws io.icegate.core.error.IcegateException NOT_FOUND, GENERATION_MISMATCH, ALREADY_EXISTS,
   *     INVALID_ARGUMENT (scope does not fit the kind), FENCED
   */
  public Resource<S> rename(
      Transaction tx, String id, ExpectedGeneration expected, NameScope scope, String name) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Own-transaction form of {@link #rename(Transaction, String, ExpectedGeneration, NameScope, String)}. */
  public Resource<S> rename(String id, ExpectedGeneration expected, NameScope scope, String name) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  // ---- delete -------------------------------------------------------------------------------

  /**
   * Deletes resource {@code id} with its name-index entry. Refused while dependents exist: a
   * namespace holding namespaces, tables or views (NAMESPACE_NOT_EMPTY); a catalog holding
   * namespaces or with non-zero dependency counters (DEPENDENCY_EXISTS). Checks read STRONG.
   * Accounts are deleted through {@link io.icegate.core.durability.AccountDeletion}, not here.
   *
   * @return the deleted resource as it was
   * @throws io.icegate.core.error.IcegateException NOT_FOUND, GENERATION_MISMATCH,
   *     NAMESPACE_NOT_EMPTY, DEPENDENCY_EXISTS, INVALID_ARGUMENT (an account)
   */
  public Resource<S> delete(Transaction tx, String id, ExpectedGeneration expected) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /**
   * Own-transaction form of {@link #delete(Transaction, String, ExpectedGeneration)}. A commit with
   * unknown result is resolved by re-reading: absent means deleted.
   */
  public Resource<S> delete(String id, ExpectedGeneration expected) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  // ---- list, count --------------------------------------------------------------------------

  /**
   * One page of {@code listing}, in name order: a range read of the name index from the token's
   * position with limit {@code pageSize + 1}, so a page costs the same however large the scope.
   *
   * @throws io.icegate.core.error.IcegateException INVALID_PAGE_TOKEN when the token was issued for
   *     another listing (another kind, account, scope or prefix) or was altered
   */
  public Page<Resource<S>> list(
      ReadTransaction tx, Listing listing, PageRequest page, ReadConsistency consistency) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Own-transaction form of {@link #list(ReadTransaction, Listing, PageRequest, ReadConsistency)}. */
  public Page<Resource<S>> list(Listing listing, PageRequest page, ReadConsistency consistency) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** How many resources {@code listing} selects (reads every name-index entry of the listing). */
  public long count(ReadTransaction tx, Listing listing, ReadConsistency consistency) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Own-transaction form of {@link #count(ReadTransaction, Listing, ReadConsistency)}. */
  public long count(Listing listing, ReadConsistency consistency) {
    throw new UnsupportedOperationException("not implemented yet");
  }
}
