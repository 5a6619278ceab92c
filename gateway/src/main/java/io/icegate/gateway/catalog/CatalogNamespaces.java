package io.icegate.gateway.catalog;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.Resource;
import io.icegate.core.paging.Page;
import io.icegate.core.paging.PageRequest;
import io.icegate.core.repo.ChangeKind;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.Listing;
import io.icegate.core.repo.OnConflict;
import io.icegate.core.repo.ResourceRepository;
import io.icegate.core.store.CommitUnknownResultException;
import io.icegate.core.store.ReadConsistency;
import io.icegate.core.store.ReadTransaction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.rest.requests.UpdateNamespacePropertiesRequest;
import org.apache.iceberg.rest.responses.UpdateNamespacePropertiesResponse;

/**
 * The namespaces of one icegate Catalog as Iceberg sees them, each operation one store transaction
 * through its {@link RepositoryCatalog} (which checks the Catalog still exists in it). Error
 * messages follow iceberg-core's own catalogs.
 */
final class CatalogNamespaces {
  private final RepositoryCatalog catalog;
  private final String accountId;
  private final String catalogId;

  CatalogNamespaces(RepositoryCatalog catalog, String accountId, String catalogId) {
    this.catalog = catalog;
    this.accountId = accountId;
    this.catalogId = catalogId;
  }

  private ResourceRepository<io.icegate.core.model.Namespace> namespaces() {
    return catalog.repositories().namespaces(accountId);
  }

  private static List<String> parentPath(Namespace ns) {
    return List.of(ns.levels()).subList(0, ns.length() - 1);
  }

  private Optional<Resource<io.icegate.core.model.Namespace>> find(
      ReadTransaction tx, Namespace ns) {
    if (ns.isEmpty()) {
      return Optional.empty();
    }
    return namespaces().getByName(tx, NameScope.inCatalog(catalogId, parentPath(ns)),
        ns.level(ns.length() - 1));
  }

  /**
   * In {@code tx}: namespace {@code ns}.
   *
   * @throws NoSuchNamespaceException when it does not exist
   */
  Resource<io.icegate.core.model.Namespace> require(ReadTransaction tx, Namespace ns) {
    return find(tx, ns)
        .orElseThrow(() -> new NoSuchNamespaceException("Namespace does not exist: %s", ns));
  }

  /** See {@link RepositoryCatalog#createNamespace}. */
  void create(Namespace ns, Map<String, String> metadata) {
    if (ns.isEmpty()) {
      throw new IllegalArgumentException("Cannot create the root namespace");
    }
    io.icegate.core.model.Namespace spec =
        new io.icegate.core.model.Namespace(catalogId, List.of(ns.levels()), metadata);
    String id = ResourceRepository.newId();
    RepositoryCatalog.call(() -> {
      try {
        return catalog.write(tx -> {
          if (ns.length() > 1) {
            // Iceberg's hierarchy (Polaris and Lakekeeper enforce it too): a child needs its
            // parent, checked in the create's own transaction.
            require(tx, Namespace.of(parentPath(ns).toArray(String[]::new)));
          }
          return namespaces().create(tx, id, spec, OnConflict.ERROR);
        });
      } catch (CommitUnknownResultException e) {
        // Resolved like the repositories' own creates: the id present means it committed.
        return namespaces().get(id).map(r -> (Object) r).orElseThrow(() -> e);
      } catch (IcegateException e) {
        if (e.code() == ErrorCode.ALREADY_EXISTS) {
          throw new AlreadyExistsException("Namespace already exists: %s", ns);
        }
        throw e;
      }
    });
  }

  /** See {@link RepositoryCatalog#listNamespaces(Namespace, PageRequest)}; {@code page} not null. */
  Page<Namespace> list(Namespace parent, PageRequest page) {
    return RepositoryCatalog.call(() -> catalog.read(tx -> {
      if (!parent.isEmpty()) {
        require(tx, parent);
      }
      Page<Resource<io.icegate.core.model.Namespace>> found = namespaces().list(tx,
          Listing.of(NameScope.inCatalog(catalogId, List.of(parent.levels()))), page,
          ReadConsistency.STRONG);
      List<Namespace> items = new ArrayList<>();
      for (Resource<io.icegate.core.model.Namespace> r : found.items()) {
        items.add(Namespace.of(r.spec().path().toArray(String[]::new)));
      }
      return new Page<>(items, found.nextPageToken());
    }));
  }

  /** A mutable copy of {@code ns}'s properties: Iceberg's response builders NPE on immutable maps. */
  Map<String, String> properties(Namespace ns) {
    return new HashMap<>(RepositoryCatalog.call(() -> catalog.read(tx -> require(tx, ns)))
        .spec().properties());
  }

  /** Drops {@code ns}; false when it does not exist. */
  boolean drop(Namespace ns) {
    return RepositoryCatalog.call(() -> catalog.write(tx -> {
      Optional<Resource<io.icegate.core.model.Namespace>> found = find(tx, ns);
      if (found.isEmpty()) {
        return false;
      }
      try {
        namespaces().delete(tx, found.get().id(), ExpectedGeneration.any());
      } catch (IcegateException e) {
        if (e.code() == ErrorCode.NAMESPACE_NOT_EMPTY) {
          throw new NamespaceNotEmptyException("Namespace %s is not empty", ns);
        }
        throw e;
      }
      return true;
    }));
  }

  /** See {@link RepositoryCatalog#updateNamespaceProperties}. */
  UpdateNamespacePropertiesResponse updateProperties(
      Namespace ns, UpdateNamespacePropertiesRequest request) {
    Set<String> overlap = new HashSet<>(request.removals());
    overlap.retainAll(request.updates().keySet());
    if (!overlap.isEmpty()) {
      throw new org.apache.iceberg.exceptions.UnprocessableEntityException(
          "Invalid namespace properties update: cannot simultaneously set and remove keys: %s",
          overlap);
    }
    return RepositoryCatalog.call(() -> catalog.write(tx -> {
      Resource<io.icegate.core.model.Namespace> current = require(tx, ns);
      Map<String, String> properties = new HashMap<>(current.spec().properties());
      UpdateNamespacePropertiesResponse.Builder response =
          UpdateNamespacePropertiesResponse.builder();
      for (String key : request.removals()) {
        if (properties.remove(key) != null) {
          response.addRemoved(key);
        } else {
          response.addMissing(key);
        }
      }
      properties.putAll(request.updates());
      response.addUpdated(request.updates().keySet());
      namespaces().update(tx, current.id(), ExpectedGeneration.of(current.generation()),
          current.spec().withProperties(properties), ChangeKind.METADATA);
      return response.build();
    }));
  }

  /** Which relations a listing shows, decided in its transaction. */
  interface Shown<S extends io.icegate.core.model.ResourceSpec> {
    boolean test(ReadTransaction tx, Resource<S> relation);
  }

  /**
   * One page of the relations of {@code ns} in {@code repository} that {@code shown} accepts,
   * filtered inside the range read ({@link ResourceRepository#list(ReadTransaction, Listing,
   * PageRequest, ReadConsistency, java.util.function.Predicate)}: full pages where possible, tokens
   * resuming after the last entry examined); {@code page} not null.
   *
   * @throws NoSuchNamespaceException when {@code ns} does not exist
   */
  <S extends io.icegate.core.model.ResourceSpec> Page<TableIdentifier> relations(Namespace ns,
      PageRequest page, ResourceRepository<S> repository, Shown<S> shown) {
    return RepositoryCatalog.call(() -> catalog.read(tx -> {
      require(tx, ns);
      Listing listing = Listing.of(NameScope.inCatalog(catalogId, List.of(ns.levels())));
      Page<Resource<S>> found = repository.list(tx, listing, page, ReadConsistency.STRONG,
          relation -> shown.test(tx, relation));
      List<TableIdentifier> items = new ArrayList<>();
      for (Resource<S> r : found.items()) {
        items.add(TableIdentifier.of(ns, r.name()));
      }
      return new Page<>(items, found.nextPageToken());
    }));
  }
}
