package io.icegate.overlay.reconcile;

import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.core.durability.AccountDeletion;
import io.icegate.core.integration.IntegrationService;
import io.icegate.core.overlay.IntegrationCascade;
import io.icegate.core.overlay.OperationRecords;
import io.icegate.core.overlay.OverlayService;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.KvStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What the upstream-job tests ({@code io.icegate.overlay.jobs}) need of a {@link
 * ReconcileHarness}, whose members are this package's: the services, the store and a "process"
 * (a reconciler and its operations) to run jobs in. Several processes over one store stand for
 * several gateways.
 */
public final class JobWorld {
  public final ReconcileHarness h;

  public JobWorld(KvStore store, Clock clock) {
    this.h = new ReconcileHarness(store, clock);
  }

  /** A fresh store: {@code memory} (real conflicts) or {@code sqlite} (a file in {@code dir}). */
  public static KvStore openStore(String kind, Path dir) {
    return ReconcileHarness.openStore(kind, dir);
  }

  /** One gateway process's reconcile machinery over the world's store. */
  public ReconcileOperations process(ReconcileHook hook, Clock clock) {
    Reconciler reconciler = h.reconciler(hook, Duration.ofMinutes(10));
    return new ReconcileOperations(reconciler, new OperationRecords(h.store), clock, 1);
  }

  public KvStore store() {
    return h.store;
  }

  public Repositories repos() {
    return h.repos;
  }

  public String account() {
    return h.account;
  }

  public IntegrationService integrations() {
    return h.integrations;
  }

  public OverlayService overlays() {
    return h.overlays;
  }

  public IntegrationCascade cascade() {
    return h.cascade;
  }

  public AccountDeletion accountDeletion() {
    return h.accountDeletion;
  }

  public String integration(String name, IcebergRestFixture upstream) {
    return h.integration(name, upstream);
  }

  public String integration(String name, String uri) {
    return h.integration(name, uri);
  }

  public String catalog(String name) {
    return h.catalog(name);
  }

  public String overlay(String name, String integrationId, String catalogId,
      List<List<String>> include) {
    return h.overlay(name, integrationId, catalogId, include);
  }

  /** A local Table of {@code catalogId} (its namespace created as needed); returns its id. */
  public String localTable(String catalogId, List<String> namespace, String name) {
    return h.localTable(catalogId, namespace, name);
  }

  /** Every Table and View of {@code catalogId}: "ns.name" to its resource. */
  public Map<String, io.icegate.core.model.Resource<?>> relations(String catalogId) {
    return h.relations(catalogId);
  }

  /** A reconcile on request (a fresh reconciler: another process's). */
  public ReconcileReport reconcile(String overlayId) {
    return h.reconcile(overlayId);
  }
}
