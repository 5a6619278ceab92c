package io.icegate.core.repo;

import com.fasterxml.uuid.Generators;
import com.fasterxml.uuid.impl.TimeBasedEpochGenerator;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.model.ResourceSpec;
import io.icegate.core.paging.Page;
import io.icegate.core.paging.PageRequest;
import io.icegate.core.store.CommitUnknownResultException;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.ReadConsistency;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

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
 * Every check runs before the first write, so a rejected mutation writes nothing. Prerequisite
 * reads go to the store, never to a cache (seed 000, "Mutation reads on raw stores").
 *
 * <p><b>Errors.</b> Every rejection is an {@link IcegateException} with a code of {@link
 * ErrorCode}; storage failures are the {@link io.icegate.core.store.KvStoreException} subclasses
 * from the store (the own-transaction forms resolve a commit with unknown result by re-reading
 * where they can, see each method).
 */
public final class ResourceRepository<S extends ResourceSpec> {
  /** Attempts of an own-transaction form whose commits keep ending with unknown result. */
  private static final int UNKNOWN_RESULT_ATTEMPTS = 5;

  private final KvStore store;
  private final Clock clock;
  private final KindRules<S> rules;
  private final ResourceCodec<S> codec;
  private final NameIndexListing<S> listing;
  private final String accountId;
  private final String partition;

  ResourceRepository(
      KvStore store,
      Clock clock,
      KindRules<S> rules,
      ResourceCodec<S> codec,
      NameIndexListing.Factory listings,
      String accountId) {
    this.store = store;
    this.clock = clock;
    this.rules = rules;
    this.codec = codec;
    this.accountId = accountId;
    this.partition = accountId == null ? KeyLayout.ROOT_PARTITION : accountId;
    this.listing = listings.create(partition, rules.kind(), this::read);
  }

  /** The kind of resource this repository stores. */
  public ResourceKind kind() {
    return rules.kind();
  }

  /** The Java type of this kind's specs. */
  public Class<S> specType() {
    return rules.specType();
  }

  /**
   * The account this repository is bound to; for the account repository, {@code null} (accounts
   * live in the server-wide partition).
   */
  public String accountId() {
    return accountId;
  }

  /** The store the own-transaction forms run on. */
  public KvStore store() {
    return store;
  }

  /** The codec of this kind's stored JSON (for receipts that embed a resource snapshot). */
  public ResourceCodec<S> codec() {
    return codec;
  }

  /** The reference of resource {@code id} of this repository. */
  public ResourceRef ref(String id) {
    return accountId == null
        ? ResourceRef.account(id)
        : new ResourceRef(accountId, rules.kind(), id);
  }

  /**
   * A new resource id: a UUID of version 7 (RFC 9562), i.e. a millisecond timestamp then random
   * bits, increasing within the process. Ids created together sort together, so a transaction
   * creating many resources appends to the end of each id-keyed range instead of touching a
   * random page per resource: with random (version 4) ids, issue 8's bench wrote 10,000 Tables
   * in 2.6 times the commit time, each commit rewriting more pages as the store grew. Still 74
   * random bits, so ids stay unguessable; nothing reads meaning from an id.
   */
  public static String newId() {
    return IDS.generate().toString();
  }

  private static final TimeBasedEpochGenerator IDS = Generators.timeBasedEpochGenerator();

  // ---- create -------------------------------------------------------------------------------

  /**
   * Creates a resource with a new random id, failing when the name is taken.
   *
   * @return the stored resource, at generation 1 and configuration generation 1
   * @throws IcegateException ALREADY_EXISTS (the name, or for a table/view the relation name, is
   *     taken), NOT_FOUND (account, catalog or namespace missing), FENCED
   */
  public Resource<S> create(Transaction tx, S spec) {
    return create(tx, newId(), spec, OnConflict.ERROR).resource();
  }

  /**
   * Creates a resource under a caller-chosen id (a reserved identity, see {@link
   * io.icegate.core.durability.IdempotentCreates}), handling a taken name as {@code onConflict}
   * says. All checks run before any write, so a rejected create writes nothing.
   *
   * @param id the new resource's id; must not be in use
   * @throws IcegateException as {@link #create(Transaction, ResourceSpec)}; ALREADY_EXISTS when
   *     {@code id} is in use; with {@link OnConflict#REPLACE}, also whatever deleting the old
   *     resource raises (e.g. NAMESPACE_NOT_EMPTY, DEPENDENCY_EXISTS)
   */
  public CreateOutcome<S> create(Transaction tx, String id, S spec, OnConflict onConflict) {
    ResourceRef ref = ref(id);
    rules.assertNoFences(tx, ref, spec);
    rules.assertParentsExist(tx, ref, spec);
    if (tx.get(KeyLayout.resource(ref)) != null) {
      throw new IcegateException(ErrorCode.ALREADY_EXISTS, kind(), kind().label(), id);
    }
    assertSiblingFree(tx, spec);
    Optional<Resource<S>> existing = getByName(tx, spec.nameScope(), spec.displayName());
    CreateOutcome.Disposition disposition = CreateOutcome.Disposition.CREATED;
    if (existing.isPresent()) {
      switch (onConflict) {
        case ERROR -> throw alreadyExists(kind(), spec.displayName());
        case RETURN_EXISTING -> {
          return new CreateOutcome<>(existing.get(), CreateOutcome.Disposition.EXISTING);
        }
        case REPLACE -> {
          Resource<S> old = existing.get();
          rules.assertDeletable(tx, old);
          remove(tx, old);
          disposition = CreateOutcome.Disposition.REPLACED;
        }
      }
    }
    Instant now = clock.instant();
    Resource<S> created = new Resource<>(id, ref.accountId(), 1, 1, now, now, spec);
    tx.set(KeyLayout.resource(ref), codec.write(created));
    tx.set(nameKey(spec), id.getBytes(StandardCharsets.UTF_8));
    rules.onCreated(tx, created);
    return new CreateOutcome<>(created, disposition);
  }

  /**
   * Own-transaction create with a random id. A commit with unknown result is resolved by reading
   * the id back: present means committed.
   */
  public Resource<S> create(S spec) {
    return create(spec, OnConflict.ERROR).resource();
  }

  /**
   * Own-transaction form of {@link #create(Transaction, String, ResourceSpec, OnConflict)} with a
   * random id; resolves a commit with unknown result like {@link #create(ResourceSpec)}.
   */
  public CreateOutcome<S> create(S spec, OnConflict onConflict) {
    String id = newId();
    for (int attempt = 1; ; attempt++) {
      try {
        return store.run(tx -> create(tx, id, spec, onConflict));
      } catch (CommitUnknownResultException e) {
        Optional<Resource<S>> stored = get(id);
        if (stored.isPresent()) {
          return new CreateOutcome<>(stored.get(), CreateOutcome.Disposition.CREATED);
        }
        giveUpAfter(attempt, "the create of a " + kind().label(), e);
      }
    }
  }

  // ---- read ---------------------------------------------------------------------------------

  /** The resource with {@code id}, if any (a serializable read). */
  public Optional<Resource<S>> get(ReadTransaction tx, String id) {
    return Optional.ofNullable(read(tx, id));
  }

  /** Own-transaction form of {@link #get(ReadTransaction, String)}. */
  public Optional<Resource<S>> get(String id) {
    return store.read(tx -> get(tx, id));
  }

  /**
   * The resource with {@code id}.
   *
   * @throws IcegateException NOT_FOUND
   */
  public Resource<S> require(ReadTransaction tx, String id) {
    Resource<S> resource = read(tx, id);
    if (resource == null) {
      throw new IcegateException(ErrorCode.NOT_FOUND, kind(), kind().label(), id);
    }
    return resource;
  }

  /**
   * The resource named {@code name} in {@code scope}, if any, through the name index.
   *
   * @param scope e.g. {@link NameScope#ACCOUNT_WIDE} for catalogs, the parent path for namespaces,
   *     the namespace path for tables and views
   */
  public Optional<Resource<S>> getByName(ReadTransaction tx, NameScope scope, String name) {
    byte[] id = tx.get(KeyLayout.name(partition, kind(), scope, name));
    return id == null ? Optional.empty() : get(tx, new String(id, StandardCharsets.UTF_8));
  }

  /** Own-transaction form of {@link #getByName(ReadTransaction, NameScope, String)}. */
  public Optional<Resource<S>> getByName(NameScope scope, String name) {
    return store.read(tx -> getByName(tx, scope, name));
  }

  // ---- update, rename -----------------------------------------------------------------------

  /**
   * Replaces the spec of resource {@code id} if it is still at the expected generation. A changed
   * name or scope moves the name-index entry in the same transaction (so update doubles as rename
   * and, for tables and views, as a move to another namespace of the catalog).
   *
   * @param change whether the update changes configuration (advances configurationGeneration too)
   * @return the stored resource at generation + 1
   * @throws IcegateException NOT_FOUND, GENERATION_MISMATCH, ALREADY_EXISTS (new name taken),
   *     INVALID_ARGUMENT (the spec belongs to another catalog), NAMESPACE_NOT_EMPTY (moving a
   *     namespace that has children), FENCED
   */
  public Resource<S> update(
      Transaction tx, String id, ExpectedGeneration expected, S spec, ChangeKind change) {
    Resource<S> current = require(tx, id);
    assertGeneration(current, expected);
    rules.assertSameHome(current.spec(), spec);
    rules.assertNoFences(tx, current.ref(), spec);
    boolean scopeChanged = !current.spec().nameScope().equals(spec.nameScope());
    boolean renamed = scopeChanged || !current.name().equals(spec.displayName());
    if (scopeChanged) {
      rules.assertParentsExist(tx, current.ref(), spec);
    }
    if (renamed) {
      rules.assertMovable(tx, current);
      assertSiblingFree(tx, spec);
      if (tx.get(nameKey(spec)) != null) {
        throw alreadyExists(kind(), spec.displayName());
      }
    }
    Resource<S> next =
        new Resource<>(
            id,
            current.accountId(),
            current.generation() + 1,
            current.configurationGeneration() + (change == ChangeKind.CONFIGURATION ? 1 : 0),
            current.createdAt(),
            clock.instant(),
            spec);
    if (renamed) {
      tx.clear(nameKey(current.spec()));
      tx.set(nameKey(spec), id.getBytes(StandardCharsets.UTF_8));
    }
    tx.set(KeyLayout.resource(current.ref()), codec.write(next));
    return next;
  }

  /**
   * Own-transaction form of {@link #update(Transaction, String, ExpectedGeneration, ResourceSpec,
   * ChangeKind)}. A commit with unknown result is resolved by re-reading: the resource at the
   * written generation with the written spec means committed; at the generation the attempt read
   * means not committed (retried); anything else is COMMIT_STATE_UNKNOWN.
   */
  public Resource<S> update(String id, ExpectedGeneration expected, S spec, ChangeKind change) {
    return publishResolving(tx -> update(tx, id, expected, spec, change), id, "the update");
  }

  /**
   * As {@link #update(String, ExpectedGeneration, ResourceSpec, ChangeKind)}, the spec decided on
   * the record the transaction replaces (one decided on an earlier read would undo a concurrent
   * write: a rotation's credential generation, a rename); a no-op patch writes nothing.
   */
  public Resource<S> update(String id, ExpectedGeneration expected, Function<S, SpecChange<S>> decide) {
    return publishResolving(tx -> {
      Resource<S> current = require(tx, id);
      SpecChange<S> next = decide.apply(current.spec());
      if (next.spec().equals(current.spec())) { // same generation and ETag, checked as ever
        assertGeneration(current, expected);
        rules.assertNoFences(tx, current.ref(), current.spec());
        return current;
      }
      return update(tx, id, expected, next.spec(), next.change());
    }, id, "the update");
  }

  /**
   * Renames resource {@code id} to {@code name} in {@code scope} (a metadata change): the old
   * name-index entry is cleared and the new one written in the same transaction.
   *
   * @throws IcegateException NOT_FOUND, GENERATION_MISMATCH, ALREADY_EXISTS, INVALID_ARGUMENT
   *     (scope does not fit the kind), NAMESPACE_NOT_EMPTY, FENCED
   */
  public Resource<S> rename(
      Transaction tx, String id, ExpectedGeneration expected, NameScope scope, String name) {
    if (!rules.accepts(scope)) {
      throw IcegateException.invalidArgument("a " + kind().label() + " cannot be named in that scope");
    }
    Resource<S> current = require(tx, id);
    S renamed = rules.specType().cast(current.spec().withName(scope, name));
    return update(tx, id, expected, renamed, ChangeKind.METADATA);
  }

  /** Own-transaction form of {@link #rename(Transaction, String, ExpectedGeneration, NameScope, String)}. */
  public Resource<S> rename(String id, ExpectedGeneration expected, NameScope scope, String name) {
    return publishResolving(tx -> rename(tx, id, expected, scope, name), id, "the rename");
  }

  // ---- delete -------------------------------------------------------------------------------

  /**
   * Deletes resource {@code id} with its name-index entry. Refused while dependents exist: a
   * namespace holding namespaces, tables or views (NAMESPACE_NOT_EMPTY); a catalog whose
   * dependency counters are not zero (DEPENDENCY_EXISTS; namespaces are counted). Checks read
   * STRONG. Accounts are deleted through {@link io.icegate.core.durability.AccountDeletion}, which
   * fences them first; without the fence this refuses (INVALID_ARGUMENT).
   *
   * @return the deleted resource as it was
   * @throws IcegateException NOT_FOUND, GENERATION_MISMATCH, NAMESPACE_NOT_EMPTY,
   *     DEPENDENCY_EXISTS, INVALID_ARGUMENT
   */
  public Resource<S> delete(Transaction tx, String id, ExpectedGeneration expected) {
    Resource<S> current = require(tx, id);
    assertGeneration(current, expected);
    rules.assertDeletable(tx, current);
    remove(tx, current);
    return current;
  }

  /**
   * Own-transaction form of {@link #delete(Transaction, String, ExpectedGeneration)}. A commit with
   * unknown result is resolved by re-reading: absent means deleted.
   */
  public Resource<S> delete(String id, ExpectedGeneration expected) {
    AtomicReference<Resource<S>> deleted = new AtomicReference<>();
    for (int attempt = 1; ; attempt++) {
      try {
        return store.run(tx -> {
          Resource<S> was = delete(tx, id, expected);
          deleted.set(was);
          return was;
        });
      } catch (CommitUnknownResultException e) {
        if (get(id).isEmpty()) {
          return deleted.get();
        }
        giveUpAfter(attempt, "the delete of " + kind().label() + " " + id, e);
      }
    }
  }

  // ---- list, count --------------------------------------------------------------------------

  /**
   * One page of {@code listing}, in name order: a range read of the name index from the token's
   * position with limit {@code pageSize + 1}, so a page costs the same however large the scope.
   *
   * @throws IcegateException INVALID_PAGE_TOKEN when the token was issued for another listing
   *     (another kind, account, scope or prefix) or was altered; INVALID_ARGUMENT when the scope
   *     does not fit the kind
   */
  public Page<Resource<S>> list(
      ReadTransaction tx, Listing listing, PageRequest page, ReadConsistency consistency) {
    assertScope(listing.scope());
    return this.listing.page(consistency.view(tx), listing, page);
  }

  /**
   * One page of the resources of {@code listing} that {@code keep} accepts, in name order. The
   * filter runs inside the range read, not on a fetched page: rejected entries are read past, so
   * a page is full whenever enough accepted entries follow, and its token resumes after the last
   * entry examined (accepted or not). To bound a transaction's work a page examines at most
   * {@value NameIndexListing#FILTER_SCAN_LIMIT} entries beyond its size; past that it is returned
   * short (possibly empty) with a token, so a long run of rejected entries costs several calls,
   * never an unbounded one. {@code keep} runs in {@code tx} and may read it.
   *
   * @throws IcegateException as {@link #list(ReadTransaction, Listing, PageRequest,
   *     ReadConsistency)}
   */
  public Page<Resource<S>> list(ReadTransaction tx, Listing listing, PageRequest page,
      ReadConsistency consistency, java.util.function.Predicate<Resource<S>> keep) {
    assertScope(listing.scope());
    return this.listing.page(consistency.view(tx), listing, page, keep);
  }

  /** Own-transaction form of {@link #list(ReadTransaction, Listing, PageRequest, ReadConsistency)}. */
  public Page<Resource<S>> list(Listing listing, PageRequest page, ReadConsistency consistency) {
    return store.read(tx -> list(tx, listing, page, consistency));
  }

  /** How many resources {@code listing} selects (reads every name-index entry of the listing). */
  public long count(ReadTransaction tx, Listing listing, ReadConsistency consistency) {
    assertScope(listing.scope());
    return this.listing.count(consistency.view(tx), listing);
  }

  /** Own-transaction form of {@link #count(ReadTransaction, Listing, ReadConsistency)}. */
  public long count(Listing listing, ReadConsistency consistency) {
    return store.read(tx -> count(tx, listing, consistency));
  }

  // ---- internals ----------------------------------------------------------------------------

  private Resource<S> read(ReadTransaction tx, String id) {
    byte[] bytes = tx.get(KeyLayout.resource(ref(id)));
    return bytes == null ? null : codec.read(bytes);
  }

  private void remove(Transaction tx, Resource<S> resource) {
    tx.clear(KeyLayout.resource(resource.ref()));
    tx.clear(nameKey(resource.spec()));
    rules.onDeleted(tx, resource);
  }

  private byte[] nameKey(S spec) {
    return KeyLayout.name(partition, kind(), spec.nameScope(), spec.displayName());
  }

  private void assertSiblingFree(ReadTransaction tx, S spec) {
    Optional<ResourceKind> sibling = kind().nameSibling();
    if (sibling.isPresent()
        && tx.get(KeyLayout.name(partition, sibling.get(), spec.nameScope(), spec.displayName()))
            != null) {
      throw alreadyExists(sibling.get(), spec.displayName());
    }
  }

  private void assertScope(NameScope scope) {
    if (!rules.accepts(scope)) {
      throw IcegateException.invalidArgument(kind().label() + " names do not live in that scope");
    }
  }

  private void assertGeneration(Resource<S> current, ExpectedGeneration expected) {
    if (!expected.matches(current.generation())) {
      throw new IcegateException(
          ErrorCode.GENERATION_MISMATCH,
          kind(),
          kind().label(),
          current.id(),
          current.generation(),
          expected.describe());
    }
  }

  private static IcegateException alreadyExists(ResourceKind kind, String name) {
    return new IcegateException(ErrorCode.ALREADY_EXISTS, kind, kind.label(), name);
  }

  private Resource<S> publishResolving(KvStore.TransactionBody<Resource<S>> body, String id, String what) {
    return ResolvedUpdate.run(this, body, id, what + " of " + kind().label() + " " + id,
        (e, attempt) -> giveUpAfter(attempt, what + " of " + kind().label() + " " + id, e));
  }

  private void giveUpAfter(int attempt, String what, CommitUnknownResultException cause) {
    if (attempt >= UNKNOWN_RESULT_ATTEMPTS) {
      throw new IcegateException(
          ErrorCode.COMMIT_STATE_UNKNOWN, kind(), ErrorCode.COMMIT_STATE_UNKNOWN.format(what), cause);
    }
  }
}
