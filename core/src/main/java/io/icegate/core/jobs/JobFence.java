package io.icegate.core.jobs;

import io.icegate.core.durability.DeletionFences;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.Integration;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.ReadTransaction;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The generation fence of seed 000 ("A future capture-plan generation must extend equivalent
 * fencing to every planned and leased durable job"), extended to jobs: what every publication of
 * a job asserts in its own transaction, on top of the reconcile run's own fence. A job may finish
 * external I/O after any of these moved; it never publishes. It asserts
 *
 * <ul>
 *   <li>the job record is still this job, held by this holder at this epoch (a takeover, a
 *       cancellation or a replanned round fences the holder out), and its lease has not lapsed by
 *       the holder's own clock (so a stalled holder stops before others may take over);
 *   <li>no deletion fence on the account, the Integration, any participating Overlay or its
 *       target Catalog;
 *   <li>the Integration's configuration and credential generations, and each participating
 *       Overlay's configuration generation, as planned: a URI, properties or credential change,
 *       a selection change, a replacement (a new identity) or a deletion all move or remove one.
 *       Pause (issue 28) advances the configuration generation of the paused resource, so it
 *       fences a planned job the same way.
 * </ul>
 *
 * A failure is RECONCILE_SUPERSEDED naming what moved. Thread-safe.
 */
public final class JobFence {
  private final Repositories repositories;
  private final Clock clock;
  private final DeletionFences fences;

  /** @param clock the holder's clock (its lease lapses by it) */
  public JobFence(Repositories repositories, Clock clock) {
    this.repositories = Objects.requireNonNull(repositories, "repositories");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.fences = repositories.fences();
  }

  /**
   * Fails unless {@code held} (a job as its holder took it) may still publish; writes nothing.
   *
   * @throws IcegateException RECONCILE_SUPERSEDED naming what changed
   */
  public void assertCurrent(ReadTransaction tx, UpstreamJob held) {
    Optional<String> moved = whatMoved(tx, held);
    if (moved.isPresent()) {
      throw new IcegateException(ErrorCode.RECONCILE_SUPERSEDED, ResourceKind.INTEGRATION,
          "upstream job " + held.jobId() + ": " + moved.get());
    }
  }

  /** What moved since {@code held} was planned and taken, if anything. */
  public Optional<String> whatMoved(ReadTransaction tx, UpstreamJob held) {
    String account = held.accountId();
    Optional<UpstreamJob> stored = StoredJobs.job(tx, account, held.integrationId());
    if (stored.isEmpty() || !stored.get().sameHolding(held)) {
      return Optional.of("the job was cancelled, replanned or taken over");
    }
    if (held.lease().expiresAtMillis() <= clock.millis()) {
      return Optional.of("its lease lapsed");
    }
    return plannedMoved(tx, held);
  }

  /**
   * What moved since {@code job} was planned (fences and generations; not the lease), if
   * anything: a planned job for which this is non-empty will never publish and is replanned.
   */
  public Optional<String> plannedMoved(ReadTransaction tx, UpstreamJob job) {
    UpstreamJob held = job;
    String account = job.accountId();
    List<ResourceRef> fenced = new ArrayList<>();
    fenced.add(ResourceRef.account(account));
    fenced.add(new ResourceRef(account, ResourceKind.INTEGRATION, held.integrationId()));
    for (UpstreamJob.Participant p : held.participants()) {
      fenced.add(new ResourceRef(account, ResourceKind.OVERLAY, p.overlayId()));
      fenced.add(new ResourceRef(account, ResourceKind.CATALOG, p.catalogId()));
    }
    for (ResourceRef ref : fenced) {
      if (fences.read(tx, ref).isPresent()) {
        return Optional.of(ref.kind().label() + " " + ref.id() + " is being deleted");
      }
    }
    Optional<Resource<Integration>> integration =
        repositories.integrations(account).get(tx, held.integrationId());
    // A finished deletion has cleared its fence: the record is gone, which says "deleted"
    // (as RunFence says it; a tryout was told a deleted Integration changed its configuration)
    if (integration.isEmpty()) {
      return Optional.of("integration " + held.integrationId() + " was deleted");
    }
    if (integration.get().configurationGeneration()
            != held.integrationConfigurationGeneration()
        || integration.get().spec().credentialGeneration() != held.credentialGeneration()) {
      return Optional.of("integration " + held.integrationId()
          + " changed its configuration or credentials");
    }
    for (UpstreamJob.Participant p : held.participants()) {
      Optional<Resource<CatalogOverlay>> overlay =
          repositories.overlays(account).get(tx, p.overlayId());
      if (overlay.isEmpty()) {
        return Optional.of("overlay " + p.overlayId() + " was deleted");
      }
      if (overlay.get().configurationGeneration() != p.configurationGeneration()) {
        return Optional.of("overlay " + p.overlayId() + " changed its configuration");
      }
    }
    return Optional.empty();
  }
}
