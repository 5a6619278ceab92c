package io.icegate.gateway.catalog;

import io.icegate.core.model.NameScope;
import io.icegate.core.model.Relation;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.Table;
import io.icegate.core.model.View;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.ResourceRepository;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NoSuchViewException;

/**
 * The tables and views of one icegate Catalog by Iceberg identifier: lookup, drop and rename,
 * written once for both kinds of {@link Relation} (they share one name scope per namespace and the
 * refusal of writes to a managed relation). Drop and rename are one store transaction each
 * through the {@link RepositoryCatalog}, which checks the Catalog still exists in it. Error
 * messages follow iceberg-core's own catalogs, naming the kind.
 */
final class CatalogRelations {
  private final RepositoryCatalog catalog;
  private final CatalogNamespaces namespaces;
  private final String accountId;
  private final String catalogId;

  CatalogRelations(RepositoryCatalog catalog, CatalogNamespaces namespaces, String accountId,
      String catalogId) {
    this.catalog = catalog;
    this.namespaces = namespaces;
    this.accountId = accountId;
    this.catalogId = catalogId;
  }

  ResourceRepository<Table> tables() {
    return catalog.repositories().tables(accountId);
  }

  ResourceRepository<View> views() {
    return catalog.repositories().views(accountId);
  }

  /** The repository of relation kind {@code kind} (TABLE or VIEW). */
  ResourceRepository<? extends Relation> repository(ResourceKind kind) {
    return switch (kind) {
      case TABLE -> tables();
      case VIEW -> views();
      default -> throw new IllegalArgumentException(kind.label() + " is not a relation");
    };
  }

  static NameScope.InCatalog scopeOf(String catalogId, TableIdentifier ident) {
    return NameScope.inCatalog(catalogId, List.of(ident.namespace().levels()));
  }

  /** In {@code tx}: the relation of {@code repository}'s kind named {@code ident}, if any. */
  <S extends Relation> Optional<Resource<S>> find(
      ReadTransaction tx, ResourceRepository<S> repository, TableIdentifier ident) {
    if (ident.namespace().isEmpty()) {
      return Optional.empty();
    }
    return repository.getByName(tx, scopeOf(catalogId, ident), ident.name());
  }

  /** In {@code tx}: whether a relation of {@code kind} is named {@code ident}. */
  boolean exists(ReadTransaction tx, ResourceKind kind, TableIdentifier ident) {
    return find(tx, repository(kind), ident).isPresent();
  }

  Optional<Resource<Table>> findTable(ReadTransaction tx, TableIdentifier ident) {
    return find(tx, tables(), ident);
  }

  Optional<Resource<View>> findView(ReadTransaction tx, TableIdentifier ident) {
    return find(tx, views(), ident);
  }

  /**
   * Deletes relation {@code ident} of {@code repository}'s kind, in one store transaction; whether
   * it existed.
   *
   * @throws io.icegate.core.error.IcegateException MANAGED_BY_OVERLAY (403) when it is managed
   */
  <S extends Relation> boolean drop(ResourceRepository<S> repository, TableIdentifier ident) {
    return RepositoryCatalog.call(() -> catalog.write(tx -> {
      Optional<Resource<S>> found = find(tx, repository, ident);
      found.ifPresent(r -> {
        ManagedRelationAccess.requireLocal(r, ident.toString());
        repository.delete(tx, r.id(), ExpectedGeneration.any());
      });
      return found.isPresent();
    }));
  }

  /**
   * Renames (or moves within the Catalog) relation {@code from} of {@code repository}'s kind to
   * {@code to}, in one store transaction.
   *
   * @throws NoSuchTableException when a table {@code from} does not exist
   * @throws NoSuchViewException when a view {@code from} does not exist
   * @throws org.apache.iceberg.exceptions.NoSuchNamespaceException when {@code to}'s namespace
   *     does not exist
   * @throws AlreadyExistsException when a table or view is named {@code to}
   * @throws io.icegate.core.error.IcegateException MANAGED_BY_OVERLAY (403) when it is managed
   */
  <S extends Relation> void rename(
      ResourceRepository<S> repository, TableIdentifier from, TableIdentifier to) {
    RepositoryCatalog.call(() -> catalog.write(tx -> {
      Resource<S> source = find(tx, repository, from)
          .orElseThrow(() -> notFound(repository.kind(), from));
      ManagedRelationAccess.requireLocal(source, from.toString());
      rename(tx, repository, source.id(), from, to);
      return null;
    }));
  }

  private <S extends Relation> void rename(Transaction tx, ResourceRepository<S> repository,
      String id, TableIdentifier from, TableIdentifier to) {
    namespaces.require(tx, to.namespace());
    for (ResourceKind kind : List.of(ResourceKind.TABLE, ResourceKind.VIEW)) {
      if (exists(tx, kind, to)) {
        throw new AlreadyExistsException(
            "Cannot rename %s to %s. %s already exists", from, to, title(kind));
      }
    }
    repository.rename(tx, id, ExpectedGeneration.any(), scopeOf(catalogId, to), to.name());
  }

  /** Iceberg's answer for a relation of {@code kind} that does not exist (404). */
  static RuntimeException notFound(ResourceKind kind, TableIdentifier ident) {
    return kind == ResourceKind.TABLE
        ? new NoSuchTableException("Table does not exist: %s", ident)
        : new NoSuchViewException("View does not exist: %s", ident);
  }

  /** The kind's name as iceberg-core's messages spell it: {@code Table}, {@code View}. */
  static String title(ResourceKind kind) {
    return Character.toUpperCase(kind.label().charAt(0)) + kind.label().substring(1);
  }
}
