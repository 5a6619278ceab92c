package io.icegate.gateway.catalog;

import io.icegate.core.error.IcegateException;
import io.icegate.core.store.CommitUnknownResultException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;

/**
 * {@code POST /v1/{prefix}/transactions/commit}: every table change is validated against and
 * applied to its table's current metadata, every new metadata file is written, and then all
 * pointers move in one store transaction, each compared-and-set against the metadata it was
 * built on. Either every table moves or none does; a managed table among them refuses the whole
 * request (403) before anything is written.
 */
final class TransactionCommit {
  private final RepositoryCatalog catalog;

  TransactionCommit(RepositoryCatalog catalog) {
    this.catalog = catalog;
  }

  private record Staged(RepositoryTableOperations ops, String expected, String newLocation) {}

  void commit(CommitTransactionRequest request) {
    Set<TableIdentifier> seen = new HashSet<>();
    List<RepositoryTableOperations> tables = new ArrayList<>();
    for (UpdateTableRequest change : request.tableChanges()) {
      TableIdentifier ident = change.identifier();
      if (ident == null) {
        throw new IllegalArgumentException("Invalid table change: missing identifier");
      }
      if (!seen.add(ident)) {
        throw new IllegalArgumentException("Invalid transaction: table " + ident + " twice");
      }
      RepositoryTableOperations ops = (RepositoryTableOperations) catalog.newTableOps(ident);
      if (ops.current() == null) {
        throw new NoSuchTableException("Table does not exist: %s", ident);
      }
      // A managed table anywhere in the request refuses all of it before any file is written;
      // each swap checks again in the store transaction.
      ops.requireLocal();
      tables.add(ops);
    }
    List<Staged> staged = new ArrayList<>();
    try {
      for (int i = 0; i < tables.size(); i++) {
        UpdateTableRequest change = request.tableChanges().get(i);
        RepositoryTableOperations ops = tables.get(i);
        TableMetadata base = ops.current();
        for (UpdateRequirement requirement : change.requirements()) {
          requirement.validate(base);
        }
        TableMetadata.Builder builder = TableMetadata.buildFrom(base);
        for (MetadataUpdate update : change.updates()) {
          update.applyTo(builder);
        }
        TableMetadata updated = builder.build();
        if (updated.changes().isEmpty()) {
          continue;
        }
        staged.add(new Staged(ops, base.metadataFileLocation(), ops.stage(base, updated)));
      }
      catalog.write(tx -> {
        for (Staged s : staged) {
          s.ops().swap(tx, s.expected(), s.newLocation());
        }
        return null;
      });
    } catch (CommitUnknownResultException e) {
      throw new CommitStateUnknownException(e);
    } catch (RuntimeException e) {
      for (Staged s : staged) {
        catalog.io().deleteFile(s.newLocation());
      }
      if (e instanceof IcegateException coded) {
        throw RepositoryErrors.toIceberg(coded);
      }
      throw e;
    }
  }
}
