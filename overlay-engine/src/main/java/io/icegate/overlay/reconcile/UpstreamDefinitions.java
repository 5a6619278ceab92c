package io.icegate.overlay.reconcile;

import io.icegate.access.delta.log.DeltaLog;
import io.icegate.access.model.UpstreamTable;
import io.icegate.access.model.UpstreamView;
import io.icegate.access.model.ViewRepresentation;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.ResourceKind;
import io.icegate.overlay.store.relation.ManagedRelations;
import io.icegate.overlay.store.relation.TableDefinition;
import io.icegate.overlay.store.relation.ViewDefinition;
import io.icegate.overlay.viewsql.ViewSqlRewriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Turns loaded upstream objects into desired relations: the stored definition (seed 000
 * "Mapping": schema, partition spec, sort order, properties, location, format, metadata location
 * of a table; every SQL representation, default namespace and properties of a view), checked by
 * building the Iceberg metadata the gateway will serve, so invalid upstream metadata fails the run
 * before anything is published.
 */
final class UpstreamDefinitions {
  private UpstreamDefinitions() {}

  /**
   * A table property by which a provider says why it has no schema for a table (the Unity
   * provider sets it, e.g. when a Delta type has no Iceberg counterpart); quoted in the error.
   */
  static final String SCHEMA_FALLBACK_REASON = "icegate.schema-fallback-reason";

  /**
   * A table without an Iceberg schema or without a location (a Delta table with a type Iceberg
   * cannot represent, say) is not skipped: skipping would retire an earlier materialization of it
   * as if it were gone upstream. It is held ({@link HeldObject}): the run publishes nothing for it
   * and keeps what was materialized of it, and the report names the table, its format and the
   * provider's reason.
   *
   * @throws IcegateException NOT_REPRESENTABLE when the upstream table lacks a schema (a type with
   *     no Iceberg counterpart) or a location; UPSTREAM_OBJECT_INVALID when its metadata is not
   *     valid Iceberg metadata
   */
  static DesiredRelation table(UpstreamTable table) {
    String path = table.format() + " table "
        + String.join(".", table.namespace().segments()) + "." + table.name();
    if (table.schemaJson() == null) {
      String reason = table.properties().get(SCHEMA_FALLBACK_REASON);
      throw unrepresentable(path, "the provider gives no Iceberg schema for it"
          + (reason == null ? "" : " (" + reason + ")"));
    }
    if (table.storageLocation() == null) {
      throw unrepresentable(path, "the provider gives no storage location for it");
    }
    String uuid = table.icebergTableUuid().map(UUID::toString)
        .orElseGet(() -> derivedUuid(table.identity().value()));
    TableDefinition definition = new TableDefinition(table.formatVersion(), uuid,
        table.storageLocation(), table.schemaJson(), table.partitionSpecJson(),
        table.sortOrderJson(), table.properties(), table.format().name(),
        table.metadataLocation());
    try {
      definition.toTableMetadata();
    } catch (RuntimeException e) {
      throw unusable(path, "its metadata is not valid Iceberg metadata (" + e.getMessage() + ")");
    }
    byte[] bytes = definition.toBytes();
    return new DesiredRelation(ResourceKind.TABLE, table.namespace().segments(), table.name(),
        table.identity().value(), table.identity().stable(), table.format().name(),
        table.metadataLocation(), bytes, ManagedRelations.digest(bytes),
        table.properties() == null ? null
            : table.properties().get(DeltaLog.COMMIT_IDENTITY_PROPERTY));
  }

  /** View property: the SQL's names were pointed at the materialized objects (issue 26). */
  static final String SQL_NAMES = "icegate.sql-names";

  /** View property: the names that could not be, so the SQL is the upstream's as written. */
  static final String SQL_UNRESOLVED = "icegate.sql-unresolved";

  /** Longest {@link #SQL_UNRESOLVED} value: a property, not a log. */
  private static final int MAX_UNRESOLVED_CHARS = 2000;

  /**
   * @param viewSql points the {@code spark} SQL at the materialized objects, or {@code null}
   *     when the provider does not say how its views name objects (the SQL is kept as written)
   * @param warnings told, for the report, when some name of the view cannot be resolved
   * @throws IcegateException UPSTREAM_OBJECT_INVALID when the view is not a valid Iceberg view
   */
  static DesiredRelation view(UpstreamView view, String upstreamCatalogName,
      ViewSqlRewriter viewSql, Consumer<String> warnings) {
    String path = "view " + String.join(".", view.namespace().segments()) + "." + view.name();
    List<ViewDefinition.Representation> sql = view.representations().stream()
        .map((ViewRepresentation r) -> new ViewDefinition.Representation(r.dialect(), r.sql()))
        .toList();
    Map<String, String> properties = new TreeMap<>(view.properties());
    boolean namesResolved = false;
    if (viewSql != null) {
      List<ViewDefinition.Representation> rewritten = new ArrayList<>();
      List<String> unresolved = new ArrayList<>();
      boolean changed = false;
      for (ViewDefinition.Representation r : sql) {
        if (!r.dialect().equalsIgnoreCase("spark")) {
          rewritten.add(r);
          continue;
        }
        ViewSqlRewriter.Result result = viewSql.rewrite(view, r.sql());
        rewritten.add(new ViewDefinition.Representation(r.dialect(), result.sql()));
        unresolved.addAll(result.unresolved());
        changed |= result.changed();
      }
      if (unresolved.isEmpty()) {
        sql = rewritten;
        namesResolved = true;
        if (changed) {
          properties.put(SQL_NAMES, "rewritten");
        }
      } else {
        String why = String.join("; ", unresolved);
        properties.put(SQL_UNRESOLVED, why.length() <= MAX_UNRESOLVED_CHARS ? why
            : why.substring(0, MAX_UNRESOLVED_CHARS - 1) + "\u2026");
        warnings.accept(path + ": SQL kept as the upstream wrote it: " + why);
      }
    }
    // Seed 000: a default catalog naming the upstream's own catalog is not carried over. Names
    // pointed at the materialized objects resolve in the catalog the view is loaded from, so
    // then no default catalog is carried over at all.
    String defaultCatalog = !namesResolved && view.defaultCatalog() != null
        && !view.defaultCatalog().equals(upstreamCatalogName) ? view.defaultCatalog() : null;
    String uuid = isUuid(view.identity().value()) && view.identity().stable()
        ? view.identity().value() : derivedUuid(view.identity().value());
    String location = view.metadataLocation() != null
        ? view.metadataLocation().substring(0, Math.max(0, view.metadataLocation().lastIndexOf('/')))
        : "";
    ViewDefinition definition;
    try {
      definition = new ViewDefinition(uuid, location.isEmpty() ? "managed:" + path : location,
          view.schemaJson(), sql, view.defaultNamespace().segments(), defaultCatalog,
          properties);
      definition.toViewMetadata(0L);
    } catch (RuntimeException e) {
      throw unusable(path, "it is not a valid Iceberg view (" + e.getMessage() + ")");
    }
    byte[] bytes = definition.toBytes();
    return new DesiredRelation(ResourceKind.VIEW, view.namespace().segments(), view.name(),
        view.identity().value(), view.identity().stable(), null, view.metadataLocation(), bytes,
        ManagedRelations.digest(bytes));
  }

  /** A UUID stable for one identity, for objects whose provider gives none. */
  private static String derivedUuid(String identity) {
    return UUID.nameUUIDFromBytes(identity.getBytes(StandardCharsets.UTF_8)).toString();
  }

  private static boolean isUuid(String value) {
    try {
      UUID.fromString(value);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static IcegateException unusable(String path, String why) {
    return new IcegateException(ErrorCode.UPSTREAM_OBJECT_INVALID, null, path, why);
  }

  private static IcegateException unrepresentable(String path, String why) {
    return new IcegateException(ErrorCode.NOT_REPRESENTABLE, null, path, why);
  }
}
