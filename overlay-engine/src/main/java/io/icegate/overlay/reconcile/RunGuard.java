package io.icegate.overlay.reconcile;

import io.icegate.core.store.ReadTransaction;

/**
 * A further condition every fenced transaction of a run asserts besides its own {@link RunFence}
 * checks: an upstream job's fence when the run publishes for a job (issue 27). Throws
 * RECONCILE_SUPERSEDED when the run may no longer publish; writes nothing.
 */
@FunctionalInterface
public interface RunGuard {

  /** No further condition: a reconcile on request. */
  RunGuard NONE = tx -> { };

  /**
   * Fails when the run may no longer publish.
   *
   * @throws io.icegate.core.error.IcegateException RECONCILE_SUPERSEDED
   */
  void assertCurrent(ReadTransaction tx);
}
