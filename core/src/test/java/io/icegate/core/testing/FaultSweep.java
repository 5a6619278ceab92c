package io.icegate.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.store.testing.FaultInjectingEngine.Fault;
import java.util.EnumSet;
import java.util.function.Consumer;

/**
 * The two fault sweeps every durability test runs over its scenario, on fresh in-memory worlds:
 * each commit point with each fault kind, and seeded random faults. A failure names the commit
 * point and fault, or the seed, so it can be replayed alone.
 */
public final class FaultSweep {
  private FaultSweep() {}

  /**
   * Runs {@code scenario} once without faults to count its commit points (at least {@code
   * minCommits}, so a scenario that silently stops committing fails), then once per commit point
   * and {@link Fault}, and checks that at least half of the planned faults actually fired.
   */
  public static void everyCommitPointWithEveryFault(
      Consumer<FaultWorld> scenario, int minCommits) {
    int commits;
    try (FaultWorld clean = FaultWorld.open(InMemoryEngine.create())) {
      scenario.accept(clean);
      commits = clean.faults.commitsSeen();
    }
    assertThat(commits).isGreaterThanOrEqualTo(minCommits);
    int fired = 0;
    for (int commit = 1; commit <= commits; commit++) {
      for (Fault fault : Fault.values()) {
        try (FaultWorld world = FaultWorld.open(InMemoryEngine.create())) {
          world.faults.failAt(commit, fault);
          scenario.accept(world);
          fired += world.faults.injected().size();
        } catch (AssertionError | RuntimeException e) {
          throw new AssertionError("commit " + commit + " fault " + fault, e);
        }
      }
    }
    assertThat(fired).isGreaterThanOrEqualTo(commits * Fault.values().length / 2);
  }

  /** Runs {@code scenario} under random faults of every kind for seeds 1..{@code runs}. */
  public static void seededRandomRuns(
      Consumer<FaultWorld> scenario, int runs, double probability) {
    for (long seed = 1; seed <= runs; seed++) {
      try (FaultWorld world = FaultWorld.open(InMemoryEngine.create())) {
        world.faults.failRandomly(seed, probability, EnumSet.allOf(Fault.class));
        scenario.accept(world);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError("seed " + seed, e);
      }
    }
  }
}
