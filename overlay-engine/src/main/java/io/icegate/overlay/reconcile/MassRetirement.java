package io.icegate.overlay.reconcile;

/**
 * Whether a run may retire every relation of its Overlay, or every relation under one of its
 * include paths (issue 21, {@link MassRetirementGuard}): only a request that says so ({@code
 * ?confirmRetirement=true}, CLI {@code --confirm-retirement}); scheduled and default runs refuse.
 */
public enum MassRetirement {
  /** Such a run fails with MASS_RETIREMENT_UNCONFIRMED, nothing published. */
  REFUSED,
  /** The caller confirmed that the upstream really dropped everything the run retires. */
  CONFIRMED
}
