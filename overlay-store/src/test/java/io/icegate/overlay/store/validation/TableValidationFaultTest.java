package io.icegate.overlay.store.validation;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.core.model.Resource;
import io.icegate.core.model.Table;
import io.icegate.core.paging.Page;
import io.icegate.core.paging.PageRequest;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.store.testing.FaultInjectingEngine.Fault;
import io.icegate.core.testing.FaultWorld;
import io.icegate.overlay.store.OverlayStore;
import io.icegate.overlay.store.testing.ContributionInvariants;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Validation publication under storage faults: a table validated once with 600 errors (set
 * "old"), then a revalidation with 1,100 errors (set "new", records in three transactions) whose
 * every commit fails once with every fault kind, while a reader polls the store without faults.
 * The reader reads status and every error page in one transaction and must always see one whole
 * set: as many records as the status counts, all of one set, in order; never a mix, never half.
 * The caller then retries; the store converges to the new set with nothing else left, and the
 * invariant checker holds. The same for a set of five, whose one commit carries allocation,
 * records and switch together.
 */
class TableValidationFaultTest {
  private static final int OLD = 600;
  private static final int NEW = 1_100;
  /** A new set that fits one transaction: allocation, records and switch commit together. */
  private static final int SMALL = 5;

  private record Setup(ManagedTableSetup tables, Resource<Table> table, TableValidations v) {}

  private static Setup setUp(FaultWorld world) {
    ManagedTableSetup tables = new ManagedTableSetup(world.repos, world.clock);
    Resource<Table> table = tables.managedTable("orders");
    tables.capture(table.id());
    TableValidations v = new TableValidations(world.repos);
    v.publish(tables.account, table.id(), Optional.empty(), 1,
        ManagedTableSetup.errors(table, "old", OLD), tx -> { });
    return new Setup(tables, table, v);
  }

  /** Publishes the new set the way a caller retries: re-reading the status each time. */
  private static ValidationOutcome revalidate(FaultWorld world, Setup s, int size) {
    return world.retrying(() -> {
      Optional<ValidationStatus> expected = world.store.read(tx ->
          new ValidationRecords().pointer(tx, s.tables().account, s.table().id()));
      return s.v().publish(s.tables().account, s.table().id(), expected, 1,
          ManagedTableSetup.errors(s.table(), "new", size), tx -> { });
    });
  }

  /** One reader's look, in one transaction: what it must never see goes to {@code seen}. */
  private static void look(KvStore store, Repositories repos, Setup s, int size,
      List<String> seen) {
    TableValidations reader = new TableValidations(repos);
    store.read(tx -> {
      Optional<ValidationStatus> status = reader.status(tx, s.tables().account, s.table().id());
      if (status.isEmpty()) {
        seen.add("no status at all");
        return null;
      }
      List<ValidationError> errors = new ArrayList<>();
      PageRequest request = PageRequest.first(PageRequest.MAX_PAGE_SIZE);
      while (true) {
        Page<ValidationError> page =
            reader.errors(tx, s.tables().account, s.table().id(), request);
        errors.addAll(page.items());
        if (page.next().isEmpty()) {
          break;
        }
        request = request.next(page.nextPageToken());
      }
      int count = status.get().errorCount();
      String set = count == OLD ? "old" : count == size ? "new" : null;
      if (set == null || errors.size() != count) {
        seen.add("status counts " + count + " errors, the page shows " + errors.size());
        return null;
      }
      for (int i = 0; i < errors.size(); i++) {
        if (!errors.get(i).message().equals(set + " #" + i)) {
          seen.add("record " + i + " of set " + set + " reads " + errors.get(i).message());
          return null;
        }
      }
      return null;
    });
  }

  @Test
  void everyCommitOfARevalidationFailsOnceAndNoReaderSeesMixedGenerations() throws Exception {
    // allocation, two batches of 500 records, the switch with the last 100
    sweep(NEW, 4);
  }

  @Test
  void aSetThatFitsOneTransactionSurvivesEveryFaultOfItsOneCommit() throws Exception {
    sweep(SMALL, 1);
  }

  private void sweep(int size, int expectedCommits) throws Exception {
    int commits;
    try (FaultWorld clean = FaultWorld.open(InMemoryEngine.create(), new OverlayStore(),
        new ContributionInvariants())) {
      Setup s = setUp(clean);
      int before = clean.faults.commitsSeen();
      revalidate(clean, s, size);
      commits = clean.faults.commitsSeen() - before;
    }
    assertThat(commits).isEqualTo(expectedCommits);
    int fired = 0;
    for (int commit = 1; commit <= commits; commit++) {
      for (Fault fault : Fault.values()) {
        InMemoryEngine engine = InMemoryEngine.create();
        try (FaultWorld world = FaultWorld.open(engine, new OverlayStore(),
            new ContributionInvariants())) {
          Setup s = setUp(world);
          KvStore readerStore = new EngineKvStore(engine);
          Repositories readerRepos = OverlayStore.repositories(readerStore, world.clock);
          List<String> seen = new CopyOnWriteArrayList<>();
          AtomicBoolean running = new AtomicBoolean(true);
          Thread poller = new Thread(() -> {
            while (running.get()) {
              look(readerStore, readerRepos, s, size, seen);
            }
          });
          poller.start();
          world.faults.failAt(world.faults.commitsSeen() + commit, fault);
          ValidationOutcome outcome = revalidate(world, s, size);
          fired += world.faults.injected().size();
          running.set(false);
          poller.join();
          look(readerStore, readerRepos, s, size, seen);
          assertThat(seen).isEmpty();
          assertThat(outcome).isInstanceOf(ValidationOutcome.Published.class);
          ValidationStatus status = s.v().status(s.tables().account, s.table().id())
              .orElseThrow();
          assertThat(status.errorCount()).isEqualTo(size);
          assertThat(status.state()).isEqualTo(ValidationState.FAILED);
          world.checker().assertClean();
        } catch (AssertionError | RuntimeException e) {
          throw new AssertionError("commit " + commit + " fault " + fault, e);
        }
      }
    }
    assertThat(fired).isEqualTo(commits * Fault.values().length);
  }
}
