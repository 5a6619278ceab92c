package io.icegate.overlay.assembly;

import io.icegate.core.assembly.CoreServices;
import io.icegate.core.credential.CredentialStore;
import io.icegate.core.durability.AccountDeletion;
import io.icegate.core.durability.CleanupStep;
import io.icegate.core.integration.IntegrationService;
import io.icegate.core.jobs.Backoff;
import io.icegate.core.jobs.Schedules;
import io.icegate.core.jobs.UpstreamJobs;
import io.icegate.core.overlay.IntegrationCascade;
import io.icegate.core.overlay.OperationRecords;
import io.icegate.core.overlay.OverlayService;
import io.icegate.core.paging.PageTokens;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.KvStore;
import io.icegate.overlay.adapter.IntegrationAdapter;
import io.icegate.overlay.adapter.IntegrationClients;
import io.icegate.overlay.discovery.IntegrationDiscovery;
import io.icegate.overlay.jobs.RefreshScheduler;
import io.icegate.overlay.jobs.UpstreamJobRunner;
import io.icegate.overlay.reconcile.OverlayCapture;
import io.icegate.overlay.reconcile.OverlayContributions;
import io.icegate.overlay.reconcile.ReconcileHook;
import io.icegate.overlay.reconcile.ReconcileOperations;
import io.icegate.overlay.reconcile.ReconcileSettings;
import io.icegate.overlay.reconcile.Reconciler;
import io.icegate.overlay.store.OverlayStore;
import io.icegate.overlay.store.capture.DeletedCaptures;
import io.icegate.overlay.tablevalidation.TableRevalidation;
import io.icegate.overlay.tablevalidation.TableStates;
import io.icegate.overlay.tablevalidation.TableValidator;
import io.icegate.overlay.validation.IntegrationValidator;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The one assembly of icegate's services over a store, given its configuration as a value: core's
 * services ({@link CoreServices}) on repositories with overlay-store's rules, and the overlay
 * engine's (Integration adapter and clients, Overlays, cascade, reconciler, validation, discovery,
 * table revalidation). The server, the test harnesses and the benchmarks build it the same way.
 * The shared services (core's, the adapter, the clients, Overlays, cascade, retirement, the
 * default reconciler) are built once; the factory methods build a new instance per call, for
 * services that own resources or touch the store when built (reconcile operations start threads,
 * discovery loads the page-token key), so a caller builds those once. Building this writes
 * nothing to the store.
 */
public final class Services {
  /** Namespaces a validation lists at most. */
  private static final int VALIDATION_MAX_NAMESPACES = 100;
  /** Asynchronous reconcile operations in flight at once in this process. */
  private static final int RECONCILE_THREADS = 2;

  /** How long a scheduled round's job lease lasts without renewal. */
  public static final Duration JOB_LEASE = Duration.ofSeconds(60);

  /** How often a running round renews its job lease. */
  public static final Duration JOB_HEARTBEAT = Duration.ofSeconds(20);

  private final CoreServices core;
  private final ServiceSettings settings;
  private final OverlayContributions retirement;
  private final OverlayService overlays;
  private final IntegrationCascade cascade;
  private final IntegrationAdapter adapter;
  private final IntegrationClients clients;
  private final Reconciler reconciler;

  /** Services opening upstream clients with {@code settings}' providers and address policy. */
  public Services(KvStore store, Clock clock, ServiceSettings settings) {
    this(store, clock, settings,
        new IntegrationClients(settings.providers(), settings.outboundPolicy()));
  }

  /** Services opening upstream clients through {@code clients} (tests that count or fail them). */
  public Services(KvStore store, Clock clock, ServiceSettings settings,
      IntegrationClients clients) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.core = new CoreServices(store, clock, new OverlayStore(), settings.core());
    Repositories repositories = core.repositories();
    this.retirement = new OverlayContributions(repositories, settings.reconcile().batch());
    this.overlays = new OverlayService(repositories, core.creates(), retirement);
    this.cascade =
        new IntegrationCascade(repositories, overlays, retirement, core.credentials());
    this.adapter = new IntegrationAdapter(repositories, core.credentials());
    this.clients = Objects.requireNonNull(clients, "clients");
    this.reconciler = reconciler(settings.reconcile(), ReconcileHook.NONE);
  }

  public ServiceSettings settings() {
    return settings;
  }

  /** Core's part: repositories, credentials, creates, tokens, Catalog and Integration services. */
  public CoreServices core() {
    return core;
  }

  public KvStore store() {
    return core.store();
  }

  public Clock clock() {
    return core.clock();
  }

  public Repositories repositories() {
    return core.repositories();
  }

  public CredentialStore credentials() {
    return core.credentials();
  }

  public IntegrationService integrations() {
    return core.integrations();
  }

  public OverlayService overlays() {
    return overlays;
  }

  /** Retirement of an Overlay's contributions (Overlay and Integration deletion). */
  public OverlayContributions retirement() {
    return retirement;
  }

  public IntegrationCascade cascade() {
    return cascade;
  }

  public IntegrationAdapter adapter() {
    return adapter;
  }

  public IntegrationClients clients() {
    return clients;
  }

  /** The reconciler with {@link ServiceSettings#reconcile()} and no hook. */
  public Reconciler reconciler() {
    return reconciler;
  }

  /** A reconciler with other settings or a hook (tests, benchmarks timing the phases). */
  public Reconciler reconciler(ReconcileSettings reconcile, ReconcileHook hook) {
    return new Reconciler(repositories(), adapter, clients, reconcile, hook,
        settings.catalogFiles());
  }

  /**
   * Account deletion: the Overlays' cleanup, the entries of captured Delta tables for the
   * generated-files collector ({@link DeletedCaptures#accountCleanup}), the credentials' cleanup,
   * then {@code more} (the server's token cache).
   */
  public AccountDeletion accountDeletion(List<CleanupStep> more) {
    List<CleanupStep> steps = new ArrayList<>();
    steps.add(overlays.accountCleanup());
    // before the credentials: it keeps the secrets of Catalogs whose generated files are pending
    steps.add(new DeletedCaptures().accountCleanup(repositories()));
    steps.add(core.credentials().accountCleanup());
    steps.addAll(more);
    return new AccountDeletion(repositories(), clock(), AccountDeletion.DEFAULT_BATCH_KEYS, steps);
  }

  /** Integration validation over the adapter and clients. */
  public IntegrationValidator validator() {
    return new IntegrationValidator(adapter, clients, clock(), VALIDATION_MAX_NAMESPACES);
  }

  /**
   * Discovery of an Integration's namespaces and objects. Loads the page-token key, writing it on
   * first use of a store.
   */
  public IntegrationDiscovery discovery() {
    return new IntegrationDiscovery(adapter, clients, PageTokens.load(store()));
  }

  /** Synchronous and asynchronous reconcile runs of {@link #reconciler()}. */
  public ReconcileOperations reconcileOperations() {
    return new ReconcileOperations(reconciler, new OperationRecords(store()), clock(),
        RECONCILE_THREADS);
  }

  /**
   * The scheduler of this process (issue 28): its own runner (a new holder id, leases of {@link
   * #JOB_LEASE} renewed every {@link #JOB_HEARTBEAT}) and reconcile operations, started at once.
   * Closing it stops its rounds; the caller closes it before the store.
   *
   * @param floor the shortest interval this server runs
   */
  public RefreshScheduler refreshScheduler(Duration floor) {
    UpstreamJobs jobs = new UpstreamJobs(repositories(), clock(), JOB_LEASE, Backoff.DEFAULT);
    ReconcileOperations operations = reconcileOperations();
    UpstreamJobRunner runner = new UpstreamJobRunner(jobs, operations, clock(), JOB_HEARTBEAT);
    return new RefreshScheduler(repositories(), runner, floor, RefreshScheduler.DEFAULT_TICK,
        RECONCILE_THREADS, operations);
  }

  /** The schedule views of the admin API and the lag metric, under {@code floor}. */
  public Schedules schedules(Duration floor) {
    return new Schedules(repositories(), clock(), floor);
  }

  /** Capture of an Overlay's tables by {@link #reconciler()}. */
  public OverlayCapture capture() {
    return new OverlayCapture(reconciler, repositories(), adapter, clients,
        settings.reconcile());
  }

  /**
   * Revalidation of captured tables, under the outbound address policy and {@code file:} setting
   * of reconciliation. Its validator runs at the default concurrency, not the configured one
   * (as the server always has).
   */
  public TableRevalidation revalidation() {
    return new TableRevalidation(repositories(), adapter, clients, overlays,
        new TableValidator(repositories(), settings.outboundPolicy(),
            settings.reconcile().allowLocalFiles(), ReconcileSettings.DEFAULT.concurrency(),
            settings.catalogFiles()));
  }

  /** A Catalog's tables as the admin sees them: capture, validation, visibility, override. */
  public TableStates tableStates() {
    return new TableStates(repositories(), revalidation());
  }
}
