package io.icegate.access.model;

import java.util.List;
import java.util.Optional;

/**
 * How a provider's views name other objects in their SQL: the upstream namespace a name's
 * qualifier denotes, resolved the way the upstream resolves it from the view's own place. A
 * caller materializing the view elsewhere uses it to point the SQL at what it materialized (the
 * provider knows its naming levels; the caller knows what it materialized). Unity Catalog: a
 * {@code catalog.schema.table} or {@code schema.table} name, relative to the view's catalog.
 */
@FunctionalInterface
public interface ViewSqlNames {

  /**
   * The upstream namespace path that {@code qualifier} denotes in {@code view}'s SQL, spelled as
   * the SQL spells it (upstream names may compare case-insensitively: the caller matches them).
   *
   * @param view the view whose SQL holds the name
   * @param qualifier the name's parts before the object name, each unquoted; empty for an
   *     unqualified name (the view's default namespace)
   * @return empty when the qualifier names nothing this connection reaches (another catalog, more
   *     levels than the upstream has)
   */
  Optional<NamespacePath> namespace(UpstreamView view, List<String> qualifier);
}
