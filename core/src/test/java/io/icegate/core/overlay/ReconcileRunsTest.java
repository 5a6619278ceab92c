package io.icegate.core.overlay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.testing.MutableClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Run generations: one live run per Overlay, a lapsed lease frees it, a newer run fences. */
class ReconcileRunsTest {
  private final KvStore store = new EngineKvStore(InMemoryEngine.create());
  private final MutableClock clock = MutableClock.start();
  private final ReconcileRuns runs = new ReconcileRuns(store, clock, Duration.ofMinutes(1));

  private ReconcileRuns.Run started(ReconcileRuns.Start start) {
    assertThat(start).isInstanceOf(ReconcileRuns.Started.class);
    return ((ReconcileRuns.Started) start).run();
  }

  @Test
  void aLiveRunBlocksOthersUntilItEndsOrItsLeaseLapses() {
    ReconcileRuns.Run first = started(runs.start("acct", "ov", "op1"));
    assertThat(first.generation()).isEqualTo(1);
    ReconcileRuns.Start second = runs.start("acct", "ov", "op2");
    assertThat(second).isInstanceOf(ReconcileRuns.Busy.class);
    assertThat(((ReconcileRuns.Busy) second).run().operationId()).isEqualTo("op1");
    // The same operation asking again (a retried start) holds it already.
    assertThat(started(runs.start("acct", "ov", "op1")).generation()).isEqualTo(1);
    // Another Overlay is independent.
    assertThat(started(runs.start("acct", "other", "op3")).generation()).isEqualTo(1);

    runs.finish("acct", "ov", first, true);
    ReconcileRuns.Run next = started(runs.start("acct", "ov", "op4"));
    assertThat(next.generation()).isEqualTo(2);

    // The holder dies without finishing: once its lease lapses a new run takes over.
    assertThat(runs.start("acct", "ov", "op5")).isInstanceOf(ReconcileRuns.Busy.class);
    clock.advance(Duration.ofMinutes(2));
    ReconcileRuns.Run takeover = started(runs.start("acct", "ov", "op5"));
    assertThat(takeover.generation()).isEqualTo(3);
    assertThatThrownBy(() -> store.read(tx -> {
      runs.assertCurrent(tx, "acct", "ov", next.generation());
      return null;
    })).isInstanceOfSatisfying(IcegateException.class,
        e -> assertThat(e.code()).isEqualTo(ErrorCode.RECONCILE_SUPERSEDED));
    // The stale holder's late finish leaves the newer run alone.
    runs.finish("acct", "ov", next, false);
    store.read(tx -> {
      runs.assertCurrent(tx, "acct", "ov", takeover.generation());
      return null;
    });
  }
}
