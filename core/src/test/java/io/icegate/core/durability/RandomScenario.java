package io.icegate.core.durability;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.Namespace;
import io.icegate.core.model.Resource;
import io.icegate.core.model.Table;
import io.icegate.core.paging.PageRequest;
import io.icegate.core.repo.ChangeKind;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.Listing;
import io.icegate.core.store.ReadConsistency;
import io.icegate.core.store.testing.FaultInjectingEngine.Fault;
import io.icegate.core.testing.FaultWorld;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * One seeded random run: two accounts, a random sequence of idempotent and plain creates, updates,
 * renames, deletes and (in half the runs) the deletion of one account, all under random faults of
 * every kind with the caller retrying; then the checks of {@link FaultWorld#verify}. Keys and names
 * come from small pools, so replays, reused keys and taken names happen often.
 */
final class RandomScenario {
  /** Chance that a read-write commit is faulted. */
  private static final double FAULT_PROBABILITY = 0.2;
  /** Codes an operation may legitimately answer in this scenario. */
  private static final Set<ErrorCode> EXPECTED = EnumSet.of(ErrorCode.ALREADY_EXISTS,
      ErrorCode.NOT_FOUND, ErrorCode.IDEMPOTENCY_KEY_REUSED, ErrorCode.NAMESPACE_NOT_EMPTY);

  private final FaultWorld w;
  private final Random random;
  private final long seed;
  private final int cleanupBatch;
  private final String[] accounts = new String[2];
  private final String[] catalogs = new String[2];
  private boolean deleted;

  RandomScenario(FaultWorld w, long seed, int cleanupBatch) {
    this.w = w;
    this.seed = seed;
    this.random = new Random(seed);
    this.cleanupBatch = cleanupBatch;
  }

  /** What one run exercised, summed by the caller to show the runs are not vacuous. */
  record Stats(int faults, Set<Fault> kinds, boolean deleted, int answers, int rejections) {}

  private int rejections;

  Stats run() {
    for (int a = 0; a < 2; a++) {
      accounts[a] = w.repos.accounts().create(new Account("acct" + a)).id();
      catalogs[a] = w.repos.catalogs(accounts[a]).create(new Catalog("c", null, Map.of())).id();
      w.repos.namespaces(accounts[a]).create(new Namespace(catalogs[a], List.of("db"), Map.of()));
    }
    w.faults.failRandomly(seed, FAULT_PROBABILITY, EnumSet.allOf(Fault.class));
    int steps = 8 + random.nextInt(10);
    int deleteAt = random.nextBoolean() ? random.nextInt(steps) : -1;
    for (int step = 0; step < steps; step++) {
      if (step == deleteAt) {
        w.retrying(() -> new AccountDeletion(w.repos, w.clock, cleanupBatch, List.of())
            .delete(accounts[0], ExpectedGeneration.any()));
        deleted = true;
        continue;
      }
      int a = random.nextInt(2);
      try {
        step(a);
      } catch (IcegateException e) {
        boolean fenced = deleted && a == 0
            && (e.code() == ErrorCode.FENCED || e.code() == ErrorCode.NOT_FOUND);
        if (!fenced && !EXPECTED.contains(e.code())) {
          throw e;
        }
        rejections++;
      }
    }
    if (deleted) {
      assertThat(w.checker().keysOfAccount(accounts[0])).isZero();
      DurabilityFaultTest.assertThatFencedOrGone(() -> w.retrying(() ->
          w.repos.tables(accounts[0]).create(table(0, List.of("db"), "late"))));
    }
    w.verify(account -> !(deleted && accounts[0].equals(account)));
    EnumSet<Fault> kinds = EnumSet.noneOf(Fault.class);
    w.faults.injected().forEach(i -> kinds.add(i.fault()));
    return new Stats(w.faults.injected().size(), kinds, deleted, w.ledger.size(), rejections);
  }

  private void step(int a) {
    String account = accounts[a];
    switch (random.nextInt(7)) {
      case 0 -> w.createIdempotently(w.repos.namespaces(account), "ns-" + random.nextInt(3),
          new Namespace(catalogs[a], List.of("db", "n" + random.nextInt(3)), Map.of()));
      case 1 -> w.createIdempotently(w.repos.tables(account), "t-" + random.nextInt(4),
          table(a, namespace(), "t" + random.nextInt(3)));
      case 2 -> w.retrying(() -> w.repos.tables(account).create(
          table(a, List.of("db"), "p" + random.nextInt(4))));
      case 3 -> someTable(a).ifPresent(t -> w.retrying(() -> w.repos.tables(account).update(
          t.id(), ExpectedGeneration.any(),
          t.spec().withMetadataLocation("s3://m/" + random.nextInt(100)), ChangeKind.METADATA)));
      case 4 -> someTable(a).ifPresent(t -> w.retrying(() ->
          w.repos.tables(account).delete(t.id(), ExpectedGeneration.any())));
      case 5 -> someTable(a).ifPresent(t -> w.retrying(() -> w.repos.tables(account).rename(
          t.id(), ExpectedGeneration.any(), NameScope.inCatalog(catalogs[a], List.of("db")),
          "r" + random.nextInt(4))));
      default -> w.createIdempotently(w.repos.accounts(), "acct-" + random.nextInt(2),
          new Account("extra" + random.nextInt(2)));
    }
  }

  private List<String> namespace() {
    return random.nextBoolean() ? List.of("db") : List.of("db", "n" + random.nextInt(3));
  }

  private Table table(int a, List<String> namespace, String name) {
    return new Table(catalogs[a], namespace, name, "s3://m/0", Map.of());
  }

  private java.util.Optional<Resource<Table>> someTable(int a) {
    List<Resource<Table>> tables = w.repos.tables(accounts[a]).list(
        Listing.of(NameScope.inCatalog(catalogs[a], List.of("db"))), PageRequest.first(),
        ReadConsistency.STRONG).items();
    return tables.isEmpty() ? java.util.Optional.empty()
        : java.util.Optional.of(tables.get(random.nextInt(tables.size())));
  }
}
