package io.icegate.overlay.tablevalidation;

import io.icegate.core.durability.DeletionFences;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.Integration;
import io.icegate.core.model.Provenance;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.model.Table;
import io.icegate.core.overlay.OverlayService;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import io.icegate.overlay.adapter.IntegrationAdapter;
import io.icegate.overlay.adapter.IntegrationClients;
import io.icegate.overlay.adapter.UpstreamFailures;
import io.icegate.overlay.store.relation.ManagedRelations;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Revalidation on request (issue 10: {@code POST .../tables/{table}/revalidate} and {@code
 * revalidate=true} on Integration validate): validates a managed Table's current capture again,
 * whatever its status, e.g. after the upstream fixed a file. Outside a reconcile run, so each
 * publication is fenced by the deletion fences of the account, the Table's Catalog, its
 * Integration and its Overlay; the publication itself asserts the capture and validation
 * generations, so a concurrent reconcile and a revalidation never interleave their results.
 * Thread-safe.
 */
public final class TableRevalidation {
  private static final ManagedRelations MANAGED = new ManagedRelations();

  private final Repositories repositories;
  private final IntegrationAdapter adapter;
  private final IntegrationClients clients;
  private final OverlayService overlays;
  private final TableValidator validator;

  public TableRevalidation(Repositories repositories, IntegrationAdapter adapter,
      IntegrationClients clients, OverlayService overlays, TableValidator validator) {
    this.repositories = Objects.requireNonNull(repositories, "repositories");
    this.adapter = Objects.requireNonNull(adapter, "adapter");
    this.clients = Objects.requireNonNull(clients, "clients");
    this.overlays = Objects.requireNonNull(overlays, "overlays");
    this.validator = Objects.requireNonNull(validator, "validator");
  }

  /**
   * Validates table {@code tableId} of Catalog {@code catalogId} now.
   *
   * @return the published outcome
   * @throws IcegateException NOT_FOUND (no such Table in that Catalog), INVALID_ARGUMENT (a local
   *     Table: nothing to validate), VALIDATION_NOT_PUBLISHED (not captured yet, the upstream
   *     failed, or a capture or validation moved on meanwhile), FENCED
   */
  public TableValidator.Outcome.Published revalidateTable(String accountId, String catalogId,
      String tableId) {
    Resource<Table> table = repositories.store().read(tx ->
        repositories.tables(accountId).get(tx, tableId)).filter(
            t -> t.spec().catalogId().equals(catalogId))
        .orElseThrow(() -> new IcegateException(ErrorCode.NOT_FOUND, ResourceKind.TABLE,
            ResourceKind.TABLE.label(), tableId));
    Provenance provenance = table.spec().provenance();
    if (provenance == null) {
      throw IcegateException.invalidArgument("table " + tableId
          + " is not managed by an overlay; there is nothing to validate");
    }
    Resource<Integration> integration =
        adapter.integration(accountId, provenance.integrationId());
    Consumer<Transaction> fence = tx -> assertObserved(tx, accountId, catalogId, integration,
        provenance.overlayId(), tableId);
    try (LazyClient client = new LazyClient(() -> clients.open(adapter.resolve(integration)))) {
      TableValidator.Outcome outcome =
          validator.validateOne(accountId, tableId, integration, client::get, fence);
      if (outcome instanceof TableValidator.Outcome.Published published) {
        return published;
      }
      throw new IcegateException(ErrorCode.VALIDATION_NOT_PUBLISHED, ResourceKind.TABLE, tableId,
          ((TableValidator.Outcome.NotPublished) outcome).reason());
    } catch (io.icegate.access.client.CatalogAccessException e) {
      throw UpstreamFailures.toIcegate(e, "integration " + integration.id());
    }
  }

  /**
   * Validates every captured managed Table of Integration {@code integrationId} now.
   *
   * @throws IcegateException NOT_FOUND (no such Integration)
   */
  public TableValidator.Result revalidateIntegration(String accountId, String integrationId) {
    Resource<Integration> integration = adapter.integration(accountId, integrationId);
    TableValidator.Result total = TableValidator.Result.NONE;
    for (Resource<CatalogOverlay> overlay : overlays.dependentsOf(accountId, integrationId)) {
      List<String> tableIds = tablesOf(accountId, overlay.id());
      Consumer<Transaction> fence = tx -> assertObserved(tx, accountId,
          overlay.spec().catalogId(), integration, overlay.id(), "of integration " + integrationId);
      TableValidator.Result result = validator.validate(accountId, tableIds, integration,
          () -> clients.open(adapter.resolve(integration)), fence);
      List<String> warnings = new ArrayList<>(total.warnings());
      warnings.addAll(result.warnings());
      total = new TableValidator.Result(total.validated() + result.validated(),
          total.failed() + result.failed(), warnings);
    }
    return total;
  }

  /** The managed Tables of {@code overlayId}, paged through the managed-relation index. */
  private List<String> tablesOf(String accountId, String overlayId) {
    List<String> ids = new ArrayList<>();
    ManagedRelations.Entry after = null;
    while (true) {
      ManagedRelations.Entry from = after;
      List<ManagedRelations.Entry> page = repositories.store().read(tx ->
          MANAGED.managedBy(tx, accountId, overlayId, from, 500));
      page.stream().filter(e -> e.kind() == ResourceKind.TABLE)
          .forEach(e -> ids.add(e.relationId()));
      if (page.size() < 500) {
        return validator.captured(accountId, ids);
      }
      after = page.get(page.size() - 1);
    }
  }

  /**
   * The deletion fences, then the Integration's configuration and credential generations as the
   * validation observed them (like a reconcile's RunFence): a verdict reached against a URI or a
   * credential the Integration no longer has is not published.
   */
  private void assertObserved(ReadTransaction tx, String accountId, String catalogId,
      Resource<Integration> integration, String overlayId, String subject) {
    DeletionFences fences = repositories.fences();
    fences.assertAbsent(tx, ResourceRef.account(accountId));
    fences.assertAbsent(tx, new ResourceRef(accountId, ResourceKind.CATALOG, catalogId));
    fences.assertAbsent(tx, integration.ref());
    fences.assertAbsent(tx, new ResourceRef(accountId, ResourceKind.OVERLAY, overlayId));
    Optional<Resource<Integration>> now =
        repositories.integrations(accountId).get(tx, integration.id());
    if (now.isEmpty()
        || now.get().configurationGeneration() != integration.configurationGeneration()
        || now.get().spec().credentialGeneration() != integration.spec().credentialGeneration()) {
      throw new IcegateException(ErrorCode.VALIDATION_NOT_PUBLISHED, ResourceKind.TABLE, subject,
          "integration " + integration.id() + " changed its configuration or credentials "
              + "meanwhile; revalidate again");
    }
  }
}
