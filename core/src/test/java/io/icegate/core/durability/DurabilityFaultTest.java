package io.icegate.core.durability;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.Namespace;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.model.Table;
import io.icegate.core.model.View;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.Listing;
import io.icegate.core.store.ReadConsistency;
import io.icegate.core.store.engine.KvEngine;
import io.icegate.core.store.testing.FaultInjectingEngine.Fault;
import io.icegate.core.testing.FaultWorld;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Faults at every commit point of an idempotent create and of an account deletion, with every
 * fault kind, followed by the caller's retry; then the {@link
 * io.icegate.core.testing.InvariantChecker} and a replay of every receipt. Each driver runs it
 * through a subclass supplying fresh engines (in-memory in core, SQLite in storage-sqlite).
 *
 * <p>Commit points are counted on a fault-free run of the same scenario; the fault plans then cover
 * those points plus the extra commits a faulted run makes (the lease release, the retry's own
 * commits), singly and in pairs.
 */
public abstract class DurabilityFaultTest {

  /** Keys per account-cleanup transaction: small, so cleanup spans many commit points. */
  static final int CLEANUP_BATCH = 4;

  /** A fresh, empty engine; each run gets its own. */
  protected abstract KvEngine newEngine();

  // ---- idempotent create ----------------------------------------------------------------------

  /** Account, catalog and namespace ["db"], written before faults are planned. */
  private record CreateSetup(String account, String catalogId) {}

  private static CreateSetup setUpCreates(FaultWorld w) {
    String account = w.repos.accounts().create(new Account("a")).id();
    String catalogId = w.repos.catalogs(account).create(new Catalog("c", null, Map.of())).id();
    w.repos.namespaces(account).create(new Namespace(catalogId, List.of("db"), Map.of()));
    return new CreateSetup(account, catalogId);
  }

  /** The operation under test: a namespace, then a table in it, each with its key, each twice. */
  private static void runCreates(FaultWorld w, CreateSetup s) {
    Namespace ns = new Namespace(s.catalogId(), List.of("db", "inner"), Map.of("k", "v"));
    Table table = new Table(s.catalogId(), List.of("db", "inner"), "t", "s3://t/1.json", Map.of());
    for (int round = 0; round < 2; round++) {
      w.createIdempotently(w.repos.namespaces(s.account()), "ns-key", ns);
      w.createIdempotently(w.repos.tables(s.account()), "table-key", table);
    }
  }

  private static void checkCreates(FaultWorld w, CreateSetup s) {
    NameScope inner = NameScope.inCatalog(s.catalogId(), List.of("db", "inner"));
    List<Resource<Table>> tables = w.repos.tables(s.account())
        .list(Listing.of(inner), io.icegate.core.paging.PageRequest.first(), ReadConsistency.STRONG)
        .items();
    assertThat(tables).extracting(Resource::name).containsExactly("t");
    assertThat(w.ledger.size()).isEqualTo(4);
    w.verify(account -> true);
  }

  /** Commits of the scenario without faults. */
  private int cleanCreateCommits() {
    try (FaultWorld w = FaultWorld.open(newEngine())) {
      CreateSetup s = setUpCreates(w);
      int before = w.faults.commitsSeen();
      runCreates(w, s);
      checkCreates(w, s);
      return w.faults.commitsSeen() - before;
    }
  }

  /**
   * One run with {@code faults} planned at {@code points} (relative to the scenario's start). The
   * first fault must fire when its point is within the fault-free run's commits; later points exist
   * only in runs that a fault lengthened.
   */
  private void runCreatesWithFaults(List<Integer> points, List<Fault> faults, int cleanCommits) {
    try (FaultWorld w = FaultWorld.open(newEngine())) {
      CreateSetup s = setUpCreates(w);
      int base = w.faults.commitsSeen();
      for (int i = 0; i < points.size(); i++) {
        w.faults.failAt(base + points.get(i), faults.get(i));
      }
      runCreates(w, s);
      if (points.get(0) <= cleanCommits) {
        assertThat(w.faults.injected()).as("faults fired").isNotEmpty();
      }
      checkCreates(w, s);
    } catch (AssertionError e) {
      throw new AssertionError("faults " + faults + " at commits " + points + ": " + e.getMessage(),
          e);
    }
  }

  @Test
  void idempotentCreateSurvivesEveryFaultAtEveryCommitPoint() {
    int commits = cleanCreateCommits();
    // 2 x (reserve + publish), then 2 replays whose reserve transaction commits without writes
    assertThat(commits).isEqualTo(6);
    int runs = 0;
    for (int point = 1; point <= commits + 2; point++) {
      for (Fault fault : Fault.values()) {
        runCreatesWithFaults(List.of(point), List.of(fault), commits);
        runs++;
      }
    }
    assertThat(runs).isEqualTo(32);
  }

  @Test
  void idempotentCreateSurvivesTwoFaultsAtAnyTwoCommitPoints() {
    int commits = cleanCreateCommits();
    int last = commits + 2;
    for (int first = 1; first <= last; first++) {
      for (int second = first + 1; second <= last; second++) {
        for (Fault a : Fault.values()) {
          for (Fault b : Fault.values()) {
            runCreatesWithFaults(List.of(first, second), List.of(a, b), commits);
          }
        }
      }
    }
  }

  // ---- account deletion -----------------------------------------------------------------------

  /** The doomed account and a survivor, each with catalogs, namespaces, tables, views, receipts. */
  private record DeletionSetup(String doomed, String survivor, long survivorKeys) {}

  private static DeletionSetup setUpDeletion(FaultWorld w) {
    String doomed = populate(w, "doomed");
    String survivor = populate(w, "survivor");
    return new DeletionSetup(doomed, survivor, w.checker().keysOfAccount(survivor));
  }

  private static String populate(FaultWorld w, String name) {
    String account = w.createIdempotently(w.repos.accounts(), "acct-" + name, new Account(name))
        .resource().id();
    for (int c = 0; c < 2; c++) {
      String catalogId = w.createIdempotently(w.repos.catalogs(account), "cat-" + c,
          new Catalog("c" + c, null, Map.of())).resource().id();
      for (int n = 0; n < 2; n++) {
        List<String> ns = List.of("ns" + n);
        w.repos.namespaces(account).create(new Namespace(catalogId, ns, Map.of()));
        w.createIdempotently(w.repos.tables(account), "t-" + c + "-" + n,
            new Table(catalogId, ns, "t", "s3://t", Map.of()));
        w.repos.views(account).create(new View(catalogId, ns, "v", "s3://v", Map.of()));
      }
    }
    return account;
  }

  private static void checkDeletion(FaultWorld w, DeletionSetup s) {
    assertThat(w.checker().keysOfAccount(s.doomed())).isZero();
    assertThat(w.checker().keysOfAccount(s.survivor())).isEqualTo(s.survivorKeys());
    Optional<Fence> fence =
        w.store.read(tx -> w.repos.fences().read(tx, ResourceRef.account(s.doomed())));
    assertThat(fence).hasValueSatisfying(f -> assertThat(f.cleaned()).isTrue());
    w.verify(account -> !s.doomed().equals(account));
  }

  private static AccountDeletion deletion(FaultWorld w) {
    return new AccountDeletion(w.repos, w.clock, CLEANUP_BATCH, List.of());
  }

  @Test
  void accountDeletionSurvivesEveryFaultAtEveryCommitPoint() {
    int commits;
    try (FaultWorld w = FaultWorld.open(newEngine())) {
      DeletionSetup s = setUpDeletion(w);
      int before = w.faults.commitsSeen();
      deletion(w).delete(s.doomed(), ExpectedGeneration.any());
      commits = w.faults.commitsSeen() - before;
      checkDeletion(w, s);
    }
    assertThat(commits).isGreaterThan(10); // fence, record, many cleanup batches, mark cleaned
    for (int point = 1; point <= commits + 2; point++) {
      for (Fault fault : Fault.values()) {
        try (FaultWorld w = FaultWorld.open(newEngine())) {
          DeletionSetup s = setUpDeletion(w);
          w.faults.failAt(w.faults.commitsSeen() + point, fault);
          w.retrying(() -> deletion(w).delete(s.doomed(), ExpectedGeneration.any()));
          if (point <= commits) {
            assertThat(w.faults.injected()).as("fault fired").isNotEmpty();
          }
          checkDeletion(w, s);
          assertThatFencedOrGone(() -> w.repos.catalogs(s.doomed())
              .create(new Catalog("late", null, Map.of())));
        } catch (AssertionError e) {
          throw new AssertionError(fault + " at deletion commit " + point + ": " + e.getMessage(),
              e);
        }
      }
    }
  }

  static void assertThatFencedOrGone(Runnable create) {
    try {
      create.run();
    } catch (IcegateException e) {
      assertThat(e.code()).isIn(ErrorCode.FENCED, ErrorCode.NOT_FOUND);
      return;
    }
    throw new AssertionError("a create in a deleted account succeeded");
  }

  // ---- seeded random runs ---------------------------------------------------------------------

  /** Seeded random runs in the normal suite; each a few dozen commits. */
  protected int randomRuns() {
    return 1000;
  }

  @Test
  void seededRandomRuns() {
    int faults = 0;
    int deletions = 0;
    int answers = 0;
    int rejections = 0;
    java.util.EnumSet<Fault> kinds = java.util.EnumSet.noneOf(Fault.class);
    for (int seed = 1; seed <= randomRuns(); seed++) {
      try (FaultWorld w = FaultWorld.open(newEngine())) {
        RandomScenario.Stats stats = new RandomScenario(w, seed, CLEANUP_BATCH).run();
        faults += stats.faults();
        kinds.addAll(stats.kinds());
        deletions += stats.deleted() ? 1 : 0;
        answers += stats.answers();
        rejections += stats.rejections();
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError("seed " + seed + ": " + e, e);
      }
    }
    // The runs are only worth their time if they cut many commits, of every kind, around
    // deletions and replays.
    int runs = randomRuns();
    assertThat(kinds).containsExactlyInAnyOrder(Fault.values());
    assertThat(faults).isGreaterThan(runs * 2);
    assertThat(deletions).isGreaterThan(runs / 3);
    assertThat(answers).isGreaterThan(runs * 2);
    assertThat(rejections).isGreaterThan(runs / 2);
    org.slf4j.LoggerFactory.getLogger(DurabilityFaultTest.class).info(
        "{} random runs: {} faults injected, {} account deletions, {} idempotent answers, {}"
            + " expected rejections", runs, faults, deletions, answers, rejections);
  }
}
