package io.icegate.overlay.tablevalidation;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.Table;
import io.icegate.core.paging.Page;
import io.icegate.core.paging.PageRequest;
import io.icegate.core.repo.ChangeKind;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.Listing;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.ReadConsistency;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import io.icegate.overlay.reconcile.HeldMarks;
import io.icegate.overlay.store.capture.CapturePointer;
import io.icegate.overlay.store.capture.CapturePointers;
import io.icegate.overlay.store.validation.TableValidations;
import io.icegate.overlay.store.validation.ValidationError;
import io.icegate.overlay.store.validation.ValidationStatus;
import io.icegate.overlay.store.validation.Visibility;
import io.icegate.overlay.store.validation.VisibilityOverride;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A Catalog's Tables as the admin sees them (issue 10): each Table with its capture, validation
 * state, override, held mark and visibility read in one transaction; the paged validation errors;
 * setting and clearing the visibility override; revalidation. A Table of another Catalog, or of
 * nothing, is NOT_FOUND, and so is an unknown Catalog. The admin API maps these onto HTTP.
 */
public final class TableStates {
  private static final CapturePointers CAPTURES = new CapturePointers();
  private static final HeldMarks HELD = new HeldMarks();

  /**
   * One Table and what the admin sees of it, from one read.
   *
   * @param held the reconcile's mark when the Table's upstream object was held (issue 21)
   */
  public record TableState(Resource<Table> table, Optional<CapturePointer> capture,
      Optional<ValidationStatus> validation, Optional<VisibilityOverride> override,
      Optional<HeldMarks.Mark> held, Visibility visibility) {}

  private final Repositories repositories;
  private final TableValidations validations;
  private final TableRevalidation revalidation;

  public TableStates(Repositories repositories, TableRevalidation revalidation) {
    this.repositories = Objects.requireNonNull(repositories, "repositories");
    this.validations = new TableValidations(repositories);
    this.revalidation = Objects.requireNonNull(revalidation, "revalidation");
  }

  /** The Table's state. */
  public TableState get(String account, String catalog, String tableId) {
    return repositories.store().read(tx -> state(tx, account, require(tx, account, catalog,
        tableId)));
  }

  /** The Table named {@code name} at {@code namespace}, if there is one. */
  public Optional<TableState> find(String account, String catalog, List<String> namespace,
      String name) {
    return repositories.store().read(tx -> {
      requireCatalog(tx, account, catalog);
      return repositories.tables(account)
          .getByName(tx, NameScope.inCatalog(catalog, namespace), name)
          .map(table -> state(tx, account, table));
    });
  }

  /**
   * One page of the Tables at {@code namespace} in name order, hidden ones included (an admin
   * finds them here to override them).
   */
  public Page<TableState> list(String account, String catalog, List<String> namespace,
      PageRequest page) {
    return repositories.store().read(tx -> {
      requireCatalog(tx, account, catalog);
      Page<Resource<Table>> found = repositories.tables(account).list(tx,
          Listing.of(NameScope.inCatalog(catalog, namespace)), page, ReadConsistency.STRONG);
      List<TableState> items = new ArrayList<>();
      for (Resource<Table> table : found.items()) {
        items.add(state(tx, account, table));
      }
      return new Page<>(items, found.nextPageToken());
    });
  }

  /** One page of the Table's validation errors. */
  public Page<ValidationError> errors(String account, String catalog, String tableId,
      PageRequest page) {
    return repositories.store().read(tx -> {
      require(tx, account, catalog, tableId);
      return validations.errors(tx, account, tableId, page);
    });
  }

  /**
   * Sets the Table's visibility override and advances the Table's generation with it.
   *
   * @throws IcegateException PRECONDITION_FAILED when the Table's generation is not {@code
   *     expected}
   */
  public void setOverride(String account, String catalog, String tableId,
      ExpectedGeneration expected, String note) {
    repositories.store().run(Idempotence.IDEMPOTENT, tx -> {
      Resource<Table> table = require(tx, account, catalog, tableId);
      checkGeneration(table, expected);
      VisibilityOverride set = validations.setOverride(tx, account, tableId, note);
      advance(tx, account, table);
      return set;
    });
  }

  /**
   * Clears the Table's visibility override, advancing the Table's generation when there was one.
   *
   * @throws IcegateException PRECONDITION_FAILED when the Table's generation is not {@code
   *     expected}
   */
  public void clearOverride(String account, String catalog, String tableId,
      ExpectedGeneration expected) {
    repositories.store().run(Idempotence.IDEMPOTENT, tx -> {
      Resource<Table> table = require(tx, account, catalog, tableId);
      checkGeneration(table, expected);
      boolean cleared = validations.clearOverride(tx, account, tableId);
      if (cleared) {
        advance(tx, account, table);
      }
      return cleared;
    });
  }

  /** Revalidates the Table now, once it is known to be in the Catalog. */
  public void revalidate(String account, String catalog, String tableId) {
    repositories.store().read(tx -> require(tx, account, catalog, tableId));
    revalidation.revalidateTable(account, catalog, tableId);
  }

  /** Revalidates every captured managed Table of Integration {@code integrationId}. */
  public TableValidator.Result revalidateIntegration(String account, String integrationId) {
    return revalidation.revalidateIntegration(account, integrationId);
  }

  private TableState state(ReadTransaction tx, String account, Resource<Table> table) {
    String tableId = table.id();
    var provenance = table.spec().provenance();
    return new TableState(table, CAPTURES.get(tx, account, tableId),
        validations.status(tx, account, tableId), validations.override(tx, account, tableId),
        provenance == null ? Optional.empty()
            : HELD.get(tx, account, provenance.overlayId(), tableId),
        validations.visibility(tx, account, table));
  }

  /** The Table, when it exists in Catalog {@code catalogId} of the account; 404 otherwise. */
  private Resource<Table> require(ReadTransaction tx, String account, String catalogId,
      String tableId) {
    requireCatalog(tx, account, catalogId);
    return repositories.tables(account).get(tx, tableId)
        .filter(t -> t.spec().catalogId().equals(catalogId))
        .orElseThrow(() -> new IcegateException(ErrorCode.NOT_FOUND, ResourceKind.TABLE,
            ResourceKind.TABLE.label(), tableId));
  }

  private void requireCatalog(ReadTransaction tx, String account, String catalogId) {
    if (repositories.catalogs(account).get(tx, catalogId).isEmpty()) {
      throw new IcegateException(ErrorCode.NOT_FOUND, ResourceKind.CATALOG,
          ResourceKind.CATALOG.label(), catalogId);
    }
  }

  /**
   * Advances the Table's generation: the override is part of the Table's admin view, so its
   * ETag must change with it, or two writers holding the same ETag would both succeed.
   */
  private void advance(Transaction tx, String account, Resource<Table> table) {
    repositories.tables(account).update(tx, table.id(), ExpectedGeneration.of(table.generation()),
        table.spec(), ChangeKind.METADATA);
  }

  private static void checkGeneration(Resource<Table> table, ExpectedGeneration expected) {
    if (!expected.matches(table.generation())) {
      throw new IcegateException(ErrorCode.PRECONDITION_FAILED, ResourceKind.TABLE,
          ResourceKind.TABLE.label(), table.id());
    }
  }
}
