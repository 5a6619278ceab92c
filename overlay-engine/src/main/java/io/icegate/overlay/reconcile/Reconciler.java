package io.icegate.overlay.reconcile;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.delta.iceberg.ManifestListCache;
import io.icegate.access.model.NamespacePath;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.Integration;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.overlay.ReconcileRuns;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.Idempotence;
import io.icegate.overlay.adapter.IntegrationAdapter;
import io.icegate.overlay.adapter.IntegrationClients;
import io.icegate.overlay.adapter.IntegrationConnection;
import io.icegate.overlay.generated.CatalogFiles;
import io.icegate.overlay.adapter.UpstreamFailures;
import io.icegate.overlay.discovery.SharedDiscovery;
import io.icegate.overlay.selection.NamespaceSelection;
import io.icegate.overlay.tablevalidation.TableValidator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles one Overlay into its target Catalog (issue 8; seed 000 "Reconciliation publication
 * and failure semantics"), in six phases:
 *
 * <ol>
 *   <li>validate the Integration's connection and authentication and discover the whole selected
 *       scope ({@link UpstreamScan}); no store writes (one read beforehand tells which Tables
 *       capture will need, whose full metadata discovery then keeps: {@link MetadataStash});
 *   <li>preflight the complete inventory against the Catalog ({@link Preflight}); conflicts fail
 *       with RECONCILE_CONFLICT listing each one, and a run that would retire everything the
 *       Overlay holds (or everything under an include path) fails with
 *       MASS_RETIREMENT_UNCONFIRMED unless confirmed ({@link MassRetirementGuard}); nothing is
 *       published before this passes;
 *   <li>publish claims, Tables and Views ({@link Publisher}), every transaction fenced ({@link
 *       RunFence});
 *   <li>only after phase 3 fully succeeded, retire what the inventory no longer holds ({@link
 *       Retirer});
 *   <li>capture the managed Iceberg Tables whose upstream metadata location changed ({@link
 *       OverlayCapture#captureTables}), in batches with one fenced pointer transaction each; a
 *       Table whose capture fails is a warning, not a failed run;
 *   <li>validate the managed Iceberg Tables whose current capture has no validation yet ({@link
 *       TableValidator}); a Table whose validation fails is a warning and stays invisible.
 * </ol>
 *
 * <p>One run per Overlay at a time. Within this instance (one per process in the gateway) a
 * registry of running Overlays refuses a second run at once, before the first has written
 * anything; across processes the Overlay's run record refuses it once a run has written its
 * record with a live lease ({@link ReconcileRuns}). A run observes that record at start without
 * writing and writes it in its first publishing transaction ({@link RunFence}), so a run that
 * changes nothing (an unchanged re-run) commits no write at all; among runs that publish, the
 * newer start wins. The record's lease is renewed by every publication and, between them, by
 * {@link #renewLeases} (the heartbeat of {@link ReconcileOperations}), so it can be short ({@link
 * ReconcileSettings#DEFAULT_LEASE}) and a holder that died frees the Overlay soon. Each run logs
 * one structured line. Thread-safe.
 */
public final class Reconciler {
  private static final Logger LOG = LoggerFactory.getLogger(Reconciler.class);

  /**
   * A run that holds its Overlay, between {@link #begin} and {@link #execute}.
   *
   * @param retirement whether the run may retire everything it holds ({@link MassRetirement})
   * @param guard what every fenced transaction of the run asserts besides ({@link RunGuard})
   * @param discovery the round whose upstream reads the run shares (issue 28), or {@code null}:
   *     the run opens its own session
   */
  public record Handle(Resource<CatalogOverlay> overlay, Resource<Integration> integration,
      ReconcileRuns.Ticket ticket, MassRetirement retirement, RunGuard guard,
      SharedDiscovery discovery) {

    /** This run, allowed to retire everything or not. */
    public Handle with(MassRetirement retirement) {
      return new Handle(overlay, integration, ticket, retirement, guard, discovery);
    }

    /** This run, also asserting {@code guard} in every fenced transaction. */
    public Handle with(RunGuard guard) {
      return new Handle(overlay, integration, ticket, retirement, guard, discovery);
    }

    /** This run, discovering through the round's shared upstream reads. */
    public Handle with(SharedDiscovery discovery) {
      return new Handle(overlay, integration, ticket, retirement, guard, discovery);
    }
  }

  /** An Overlay in the registry of running ones. */
  private record Running(String accountId, String overlayId) {}

  private final Repositories repositories;
  private final IntegrationAdapter adapter;
  private final IntegrationClients clients;
  private final ReconcileRuns runs;
  private final ReconcileSettings settings;
  private final ReconcileHook hook;
  private final CatalogFiles catalogFiles;
  private final ManifestListCache manifestLists = new ManifestListCache();
  private final Map<Running, ReconcileRuns.Ticket> running = new ConcurrentHashMap<>();

  /** A reconciler whose Delta capture writes only to {@code file:} warehouses. */
  public Reconciler(Repositories repositories, IntegrationAdapter adapter,
      IntegrationClients clients, ReconcileSettings settings, ReconcileHook hook) {
    this(repositories, adapter, clients, settings, hook, CatalogFiles.LOCAL);
  }

  /**
   * @param catalogFiles writes the files Delta capture generates under the target Catalog's
   *     warehouse
   */
  public Reconciler(Repositories repositories, IntegrationAdapter adapter,
      IntegrationClients clients, ReconcileSettings settings, ReconcileHook hook,
      CatalogFiles catalogFiles) {
    this.catalogFiles = Objects.requireNonNull(catalogFiles, "catalogFiles");
    this.repositories = Objects.requireNonNull(repositories, "repositories");
    this.adapter = Objects.requireNonNull(adapter, "adapter");
    this.clients = Objects.requireNonNull(clients, "clients");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.hook = Objects.requireNonNull(hook, "hook");
    this.runs = new ReconcileRuns(repositories.store(), repositories.clock(), settings.lease());
  }

  /** Where Delta capture writes, and validation reads, generated files. */
  CatalogFiles catalogFiles() {
    return catalogFiles;
  }

  /** The manifest lists this gateway's Delta captures wrote, for the captures after them. */
  ManifestListCache manifestLists() {
    return manifestLists;
  }

  /** The run bookkeeping this reconciler uses. */
  public ReconcileRuns runs() {
    return runs;
  }

  /** The repositories it reconciles into. */
  Repositories repositories() {
    return repositories;
  }

  /**
   * A synchronous run: {@link #begin} then {@link #execute}.
   *
   * @throws IcegateException NOT_FOUND, RECONCILE_IN_PROGRESS, and whatever {@link #execute}
   *     throws
   */
  public ReconcileReport reconcile(String accountId, String overlayId) {
    return reconcile(accountId, overlayId, holder -> false);
  }

  /**
   * A synchronous run that may take over a holder known ended; see {@link #begin(String, String,
   * String, Predicate)}.
   */
  public ReconcileReport reconcile(String accountId, String overlayId,
      Predicate<String> holderEnded) {
    return reconcile(accountId, overlayId, MassRetirement.REFUSED, holderEnded);
  }

  /**
   * A synchronous run that may retire everything the Overlay holds when {@code retirement} is
   * {@link MassRetirement#CONFIRMED}; see {@link #begin(String, String, String, Predicate)}.
   */
  public ReconcileReport reconcile(String accountId, String overlayId, MassRetirement retirement,
      Predicate<String> holderEnded) {
    ReconcileRuns.Start start =
        begin(accountId, overlayId, UUID.randomUUID().toString(), holderEnded);
    if (start instanceof ReconcileRuns.Busy) {
      throw new IcegateException(ErrorCode.RECONCILE_IN_PROGRESS, ResourceKind.OVERLAY, overlayId);
    }
    ReconcileRuns.Ticket ticket = ((ReconcileRuns.Started) start).ticket();
    Handle handle;
    try {
      handle = handle(accountId, overlayId, ticket).with(retirement);
    } catch (RuntimeException e) {
      release(ticket);
      throw e;
    }
    return execute(handle, new ReconcileProgress());
  }

  /**
   * Starts a run for {@code operationId}, writing nothing: refused while this instance runs the
   * Overlay or the Overlay's run record shows a live run. A started run holds the Overlay in this
   * instance until {@link #execute} ends or {@link #release}.
   *
   * @return {@link ReconcileRuns.Started} with the run's ticket, or {@link ReconcileRuns.Busy}
   *     naming the holder's operation
   * @throws IcegateException NOT_FOUND (account or Overlay)
   */
  public ReconcileRuns.Start begin(String accountId, String overlayId, String operationId) {
    return begin(accountId, overlayId, operationId, holder -> false);
  }

  /**
   * As {@link #begin(String, String, String)}, except that when the Overlay's run record names a
   * live holder from another process whose operation {@code holderEnded} says has ended (its
   * operation answered interrupted because its process stopped storing it, or finished without
   * recording its end), the run takes over: it starts as over a lapsed lease and fences that
   * holder out at its first publication ({@link ReconcileRuns#start(
   * io.icegate.core.store.ReadTransaction, String, String, String, String)}). A run this instance
   * holds is never taken over.
   *
   * @param holderEnded asked at most once, with the holder's operation id, outside any
   *     transaction
   */
  public ReconcileRuns.Start begin(String accountId, String overlayId, String operationId,
      Predicate<String> holderEnded) {
    Objects.requireNonNull(holderEnded, "holderEnded");
    Running key = new Running(accountId, overlayId);
    ReconcileRuns.Ticket holder = running.get(key);
    if (holder != null) {
      return new ReconcileRuns.Busy(holder.operationId());
    }
    ReconcileRuns.Start start = repositories.store().read(tx -> {
      repositories.overlays(accountId).require(tx, overlayId);
      return runs.start(tx, accountId, overlayId, operationId);
    });
    if (start instanceof ReconcileRuns.Busy busy && holderEnded.test(busy.operationId())) {
      start = repositories.store().read(tx -> {
        repositories.overlays(accountId).require(tx, overlayId);
        return runs.start(tx, accountId, overlayId, operationId, busy.operationId());
      });
      if (start instanceof ReconcileRuns.Started) {
        LOG.info("reconcile of overlay {} takes over from ended operation {}", overlayId,
            busy.operationId());
      }
    }
    if (start instanceof ReconcileRuns.Started started) {
      holder = running.putIfAbsent(key, started.ticket());
      if (holder != null) {
        return new ReconcileRuns.Busy(holder.operationId()); // lost a race within this process
      }
    }
    return start;
  }

  /**
   * Renews the run-record lease of every run this instance holds that has written its record
   * ({@link ReconcileRuns#renew}), one small transaction each; a failure is a WARN line, and the
   * next call tries again. Called on a heartbeat shorter than the lease.
   */
  public void renewLeases() {
    for (ReconcileRuns.Ticket ticket : running.values()) {
      try {
        runs.renew(ticket);
      } catch (RuntimeException e) {
        LOG.warn("renewing the lease of reconcile run {} of overlay {} failed: {}",
            ticket.generation(), ticket.overlayId(), e.getClass().getName());
      }
    }
  }

  /** Ends a begun run that will not {@link #execute}: the Overlay is free again here. */
  public void release(ReconcileRuns.Ticket ticket) {
    end(ticket, false);
  }

  /**
   * Ends a begun run whose work was done outside {@link #execute} (a capture on request): records
   * its end if it wrote its record, and frees the Overlay in this instance.
   */
  public void finish(ReconcileRuns.Ticket ticket, boolean succeeded) {
    end(ticket, succeeded);
  }

  private void end(ReconcileRuns.Ticket ticket, boolean succeeded) {
    try {
      runs.finish(ticket, succeeded); // writes only if the run wrote its record
    } finally {
      running.remove(new Running(ticket.accountId(), ticket.overlayId()), ticket);
    }
  }

  /**
   * The Overlay and Integration records a started run observes: everything it publishes is fenced
   * on their generations as read here (after the run started, so a change after this point fences
   * the run and one before it is what the run reconciles). The handle refuses mass retirement
   * ({@link Handle#with} to confirm it). A paused Integration starts no upstream work (issue 28);
   * a pause after this point advances its configuration generation, which fences the run.
   *
   * @throws IcegateException INTEGRATION_PAUSED
   */
  public Handle handle(String accountId, String overlayId, ReconcileRuns.Ticket ticket) {
    return repositories.store().read(tx -> {
      Resource<CatalogOverlay> overlay = repositories.overlays(accountId).require(tx, overlayId);
      Resource<Integration> integration =
          repositories.integrations(accountId).require(tx, overlay.spec().integrationId());
      if (integration.spec().paused()) {
        throw new IcegateException(ErrorCode.INTEGRATION_PAUSED, ResourceKind.INTEGRATION,
            integration.id());
      }
      return new Handle(overlay, integration, ticket, MassRetirement.REFUSED, RunGuard.NONE,
          null);
    });
  }

  /**
   * Runs the phases for a begun run, recording its end in the run record if the run wrote
   * one, and frees the Overlay in this instance.
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
        end(handle.ticket(), ok);
      } catch (RuntimeException e) {
        LOG.warn("recording the end of reconcile run {} of overlay {} failed: {}",
            handle.ticket().generation(), overlay.id(), e.getClass().getName());
      }
      var counts = progress.counts();
      LOG.info("reconcile account={} overlay={} catalog={} integration={} run={} outcome={}"
              + " created={} updated={} unchanged={} retired={} namespacesClaimed={}"
              + " namespacesCreated={} namespacesPruned={} warnings={} durationMs={}",
          account, overlay.id(), overlay.spec().catalogId(), overlay.spec().integrationId(),
          handle.ticket().generation(), outcome, counts.get(ReconcileCount.CREATED),
          counts.get(ReconcileCount.UPDATED), counts.get(ReconcileCount.UNCHANGED),
          counts.get(ReconcileCount.RETIRED), counts.get(ReconcileCount.NAMESPACES_CLAIMED),
          counts.get(ReconcileCount.NAMESPACES_CREATED),
          counts.get(ReconcileCount.NAMESPACES_PRUNED),
          report == null ? 0 : report.warnings().size(),
          (System.nanoTime() - started) / 1_000_000);
    }
  }

  /**
   * Makes {@code held} the Overlay's held marks (issue 21: the admin table view says why a table
   * keeps an older state), in one fenced transaction, only when they differ from what is stored.
   */
  private void markHeld(RunFence fence, String account, String overlayId,
      Map<String, HeldObject> held) {
    HeldMarks marks = new HeldMarks();
    if (repositories.store().read(tx -> marks.needsWork(tx, account, overlayId, held))) {
      repositories.store().run(Idempotence.IDEMPOTENT, tx -> {
        fence.assertAndRenew(tx);
        marks.publish(tx, account, overlayId, held,
            repositories.clock().instant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
        return null;
      });
    }
  }

  private ReconcileReport phases(Handle handle, ReconcileProgress progress, long started) {
    Resource<CatalogOverlay> overlay = handle.overlay();
    Resource<Integration> integration = handle.integration();
    String account = overlay.accountId();
    NamespaceSelection selection = NamespaceSelection.of(overlay.spec().includeNamespaces(),
        overlay.spec().excludeNamespaces());

    progress.enter(ReconcileProgress.Phase.DISCOVERY);
    // Read before discovery (reads only): which Tables capture will need, so discovery keeps
    // their full metadata and capture need not load them from upstream again.
    MetadataStash stash = MetadataStash.forRun(repositories, account, overlay.id(),
        MetadataStash.DEFAULT_BUDGET_BYTES);
    Inventory inventory;
    IntegrationConnection connection;
    try {
      connection = adapter.resolve(integration);
    } catch (CatalogAccessException e) {
      throw UpstreamFailures.toIcegate(e, "integration " + integration.id());
    }
    try (CatalogClient client = handle.discovery() == null ? clients.open(connection)
        : handle.discovery().open(connection, clients::open)) {
      client.validate();
      // The upstream's name for its own catalog, which a view's default catalog then names
      // needlessly (seed 000): the provider knows which connection property holds it.
      inventory = new UpstreamScan(client, selection, settings.concurrency(),
          client.upstreamCatalogName().orElse(null), progress, stash).scan();
    } catch (CatalogAccessException e) {
      throw UpstreamFailures.toIcegate(e, UpstreamFailures.catalogSubject(connection.config()));
    }
    hook.afterDiscovery(inventory);

    progress.enter(ReconcileProgress.Phase.PREFLIGHT);
    Destination destination = new Destination(repositories, account, overlay.spec().catalogId(),
        integration.id(), overlay.id());
    RunFence fence = new RunFence(repositories, runs, integration, overlay, handle.ticket(),
        handle.guard());
    // A run already superseded at this point must not even report conflicts as if it were current.
    repositories.store().read(tx -> {
      fence.assertCurrent(tx);
      return null;
    });
    Preflight.Plan plan = new Preflight(repositories.store(), destination, settings.batch())
        .check(inventory);
    inventory = inventory.holding(plan.blocked());
    if (handle.retirement() == MassRetirement.REFUSED) {
      new MassRetirementGuard(repositories.store(), destination, settings.batch())
          .check(plan.keep(), selection.includeNamespaces().stream()
              .map(NamespacePath::segments).toList());
    }
    hook.afterPreflight(inventory);

    progress.enter(ReconcileProgress.Phase.PUBLISH);
    Set<String> capturedInPublication = new Publisher(repositories.store(), destination,
        new PublicationCapture(repositories, account, stash), fence, hook, progress,
        settings.batch()).publish(plan, inventory);

    progress.enter(ReconcileProgress.Phase.RETIRE);
    new Retirer(repositories.store(), repositories, destination, fence::assertAndRenew, progress,
        settings.batch())
        .retire(plan.keep(), Destination.withAncestors(inventory.namespaces()));
    markHeld(fence, account, overlay.id(), plan.heldRelations());

    hook.afterRetirement(inventory);

    progress.enter(ReconcileProgress.Phase.CAPTURE);
    List<TableCapturer.Target> targets =
        new TableCapturer(repositories, fence, settings.concurrency(), settings.batch())
            .ofInventory(inventory);
    List<TableCapturer.Target> notYetCaptured = targets.stream()
        .filter(t -> !capturedInPublication.contains(t.tableId())).toList();
    TableCapturer.Result captured = OverlayCapture.captureTables(repositories, fence, settings,
        notYetCaptured, stash, () -> clients.open(adapter.resolve(integration)));
    DeltaCapturer deltaCapturer = new DeltaCapturer(repositories, fence, catalogFiles,
        manifestLists, clients.policy(), settings.batch());
    List<TableCapturer.Target> deltaTargets = deltaCapturer.ofInventory(inventory);
    TableCapturer.Result deltaCaptured = deltaCapturer.capture(deltaTargets,
        () -> clients.open(adapter.resolve(integration)));
    progress.add(ReconcileCount.CAPTURED, captured.captured() + deltaCaptured.captured());
    progress.add(ReconcileCount.CAPTURE_UNCHANGED,
        captured.unchanged() + deltaCaptured.unchanged());
    progress.add(ReconcileCount.CAPTURE_FAILED, captured.failed() + deltaCaptured.failed());
    List<String> warnings = new ArrayList<>(inventory.warnings());
    warnings.addAll(captured.warnings());
    warnings.addAll(deltaCaptured.warnings());
    hook.afterCapture(inventory);

    progress.enter(ReconcileProgress.Phase.VALIDATE);
    List<TableCapturer.Target> validationTargets = new ArrayList<>(targets);
    validationTargets.addAll(deltaTargets);
    TableValidator.Result validated = OverlayCapture.validateTables(repositories, clients,
        settings, fence, integration, validationTargets,
        () -> clients.open(adapter.resolve(integration)), catalogFiles);
    progress.add(ReconcileCount.VALIDATED, validated.validated());
    progress.add(ReconcileCount.VALIDATION_FAILED, validated.failed());
    warnings.addAll(validated.warnings());

    return ReconcileReport.of(overlay.id(), handle.ticket().generation(), progress,
        inventory.held(), warnings, (System.nanoTime() - started) / 1_000_000);
  }
}
