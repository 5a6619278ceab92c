package io.icegate.overlay.reconcile;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogClient;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.Integration;
import io.icegate.core.model.IntegrationType;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.overlay.ReconcileRuns;
import io.icegate.core.repo.Repositories;
import io.icegate.overlay.adapter.IntegrationAdapter;
import io.icegate.overlay.adapter.IntegrationClients;
import io.icegate.overlay.adapter.UpstreamFailures;
import io.icegate.overlay.selection.NamespaceSelection;
import java.util.Objects;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles one Overlay into its target Catalog (issue 8; seed 000 "Reconciliation publication
 * and failure semantics"), in four phases:
 *
 * <ol>
 *   <li>validate the Integration's connection and authentication and discover the whole selected
 *       scope ({@link UpstreamScan}); no store access;
 *   <li>preflight the complete inventory against the Catalog ({@link Preflight}); conflicts fail
 *       with RECONCILE_CONFLICT listing each one; nothing is published before this passes;
 *   <li>publish claims, Tables and Views ({@link Publisher}), every transaction fenced ({@link
 *       RunFence});
 *   <li>only after phase 3 fully succeeded, retire what the inventory no longer holds ({@link
 *       Retirer}).
 * </ol>
 *
 * One run per Overlay at a time ({@link ReconcileRuns}); each run logs one structured line.
 * Thread-safe.
 */
public final class Reconciler {
  private static final Logger LOG = LoggerFactory.getLogger(Reconciler.class);

  /** A run that holds its Overlay, between {@link #begin} and {@link #execute}. */
  public record Handle(Resource<CatalogOverlay> overlay, Resource<Integration> integration,
      ReconcileRuns.Run run) {}

  private final Repositories repositories;
  private final IntegrationAdapter adapter;
  private final IntegrationClients clients;
  private final ReconcileRuns runs;
  private final ReconcileSettings settings;
  private final ReconcileHook hook;

  public Reconciler(Repositories repositories, IntegrationAdapter adapter,
      IntegrationClients clients, ReconcileSettings settings, ReconcileHook hook) {
    this.repositories = Objects.requireNonNull(repositories, "repositories");
    this.adapter = Objects.requireNonNull(adapter, "adapter");
    this.clients = Objects.requireNonNull(clients, "clients");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.hook = Objects.requireNonNull(hook, "hook");
    this.runs = new ReconcileRuns(repositories.store(), repositories.clock(), settings.lease());
  }

  /** The run bookkeeping this reconciler uses. */
  public ReconcileRuns runs() {
    return runs;
  }

  /**
   * A synchronous run: {@link #begin} then {@link #execute}.
   *
   * @throws IcegateException NOT_FOUND, RECONCILE_IN_PROGRESS, and whatever {@link #execute}
   *     throws
   */
  public ReconcileReport reconcile(String accountId, String overlayId) {
    ReconcileRuns.Start start = begin(accountId, overlayId, UUID.randomUUID().toString());
    if (start instanceof ReconcileRuns.Busy) {
      throw new IcegateException(ErrorCode.RECONCILE_IN_PROGRESS, ResourceKind.OVERLAY, overlayId);
    }
    ReconcileRuns.Run run = ((ReconcileRuns.Started) start).run();
    Handle handle;
    try {
      handle = handle(accountId, overlayId, run);
    } catch (RuntimeException e) {
      runs.finish(accountId, overlayId, run, false); // do not hold the Overlay until the lease lapses
      throw e;
    }
    return execute(handle, new ReconcileProgress());
  }

  /**
   * Takes the Overlay's next run generation for {@code operationId}, unless a live run holds it.
   *
   * @throws IcegateException NOT_FOUND (account or Overlay)
   */
  public ReconcileRuns.Start begin(String accountId, String overlayId, String operationId) {
    repositories.store().read(tx -> repositories.overlays(accountId).require(tx, overlayId));
    return runs.start(accountId, overlayId, operationId);
  }

  /**
   * The Overlay and Integration records a started run observes: everything it publishes is fenced
   * on their generations as read here (after the run generation was taken, so a change after this
   * point fences the run and one before it is what the run reconciles).
   */
  public Handle handle(String accountId, String overlayId, ReconcileRuns.Run run) {
    return repositories.store().read(tx -> {
      Resource<CatalogOverlay> overlay = repositories.overlays(accountId).require(tx, overlayId);
      Resource<Integration> integration =
          repositories.integrations(accountId).require(tx, overlay.spec().integrationId());
      return new Handle(overlay, integration, run);
    });
  }

  /**
   * Runs the four phases for a begun run, recording its end in the run record.
   *
   * @throws IcegateException RECONCILE_CONFLICT (with every conflict in {@link
   *     IcegateException#details()}), RECONCILE_SUPERSEDED, the upstream codes (NOT_FOUND,
   *     INTEGRATION_NOT_USABLE, UPSTREAM_FAILED, UPSTREAM_UNAVAILABLE)
   */
  public ReconcileReport execute(Handle handle, ReconcileProgress progress) {
    long started = System.nanoTime();
    Resource<CatalogOverlay> overlay = handle.overlay();
    String account = overlay.accountId();
    boolean ok = false;
    String outcome = "failed";
    ReconcileReport report = null;
    try {
      report = phases(handle, progress, started);
      ok = true;
      outcome = "succeeded";
      return report;
    } catch (IcegateException e) {
      outcome = e.code().name();
      throw e;
    } finally {
      progress.enter(ReconcileProgress.Phase.DONE);
      try {
        runs.finish(account, overlay.id(), handle.run(), ok);
      } catch (RuntimeException e) {
        LOG.warn("recording the end of reconcile run {} of overlay {} failed: {}",
            handle.run().generation(), overlay.id(), e.getClass().getName());
      }
      var counts = progress.counts();
      LOG.info("reconcile account={} overlay={} catalog={} integration={} run={} outcome={}"
              + " created={} updated={} unchanged={} retired={} namespacesClaimed={}"
              + " namespacesCreated={} namespacesPruned={} warnings={} durationMs={}",
          account, overlay.id(), overlay.spec().catalogId(), overlay.spec().integrationId(),
          handle.run().generation(), outcome, counts.get("created"), counts.get("updated"),
          counts.get("unchanged"), counts.get("retired"), counts.get("namespacesClaimed"),
          counts.get("namespacesCreated"), counts.get("namespacesPruned"),
          report == null ? 0 : report.warnings().size(),
          (System.nanoTime() - started) / 1_000_000);
    }
  }

  /**
   * The upstream's name for its own catalog, which a view's default catalog then names needlessly
   * (seed 000): Iceberg REST's {@code warehouse}; for Unity the {@code catalog} connection property
   * (the Unity catalog whose schemas are the root namespaces). Delta Sharing shares no views.
   */
  private static String upstreamCatalogName(Integration integration) {
    return integration.properties().get(
        integration.type() == IntegrationType.UNITY ? "catalog" : "warehouse");
  }

  private ReconcileReport phases(Handle handle, ReconcileProgress progress, long started) {
    Resource<CatalogOverlay> overlay = handle.overlay();
    Resource<Integration> integration = handle.integration();
    String account = overlay.accountId();
    NamespaceSelection selection = NamespaceSelection.of(overlay.spec().includeNamespaces(),
        overlay.spec().excludeNamespaces());

    progress.enter(ReconcileProgress.Phase.DISCOVERY);
    Inventory inventory;
    try (CatalogClient client = clients.open(adapter.resolve(integration))) {
      client.validate();
      inventory = new UpstreamScan(client, selection, settings.concurrency(),
          upstreamCatalogName(integration.spec()), progress).scan();
    } catch (CatalogAccessException e) {
      throw UpstreamFailures.toIcegate(e, "integration " + integration.id());
    }
    hook.afterDiscovery(inventory);

    progress.enter(ReconcileProgress.Phase.PREFLIGHT);
    Destination destination = new Destination(repositories, account, overlay.spec().catalogId(),
        integration.id(), overlay.id());
    RunFence fence = new RunFence(repositories, runs, integration, overlay, handle.run());
    // A run already superseded at this point must not even report conflicts as if it were current.
    repositories.store().read(tx -> {
      fence.assertCurrent(tx);
      return null;
    });
    Preflight.Plan plan = new Preflight(repositories.store(), destination, settings.batch())
        .check(inventory);
    hook.afterPreflight(inventory);

    progress.enter(ReconcileProgress.Phase.PUBLISH);
    new Publisher(repositories.store(), destination, fence, hook, progress, settings.batch())
        .publish(plan, inventory);

    progress.enter(ReconcileProgress.Phase.RETIRE);
    new Retirer(repositories.store(), repositories, destination, fence::assertAndRenew, progress,
        settings.batch())
        .retire(inventory.identityKeys(), Destination.withAncestors(inventory.namespaces()));

    return ReconcileReport.of(overlay.id(), handle.run().generation(), progress,
        inventory.warnings(), (System.nanoTime() - started) / 1_000_000);
  }
}
