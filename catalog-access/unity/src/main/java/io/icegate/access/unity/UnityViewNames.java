package io.icegate.access.unity;

import io.icegate.access.model.NamespacePath;
import io.icegate.access.model.UpstreamView;
import io.icegate.access.model.ViewSqlNames;
import java.util.List;
import java.util.Optional;

/**
 * Unity's three-level names in a view's SQL ({@code catalog.schema.table}, {@code schema.table}
 * relative to the view's catalog, {@code table} in the view's schema), mapped onto this
 * connection's namespace paths: {@code [schema]} when the Integration names a {@code catalog}
 * (any other catalog is out of reach), else {@code [catalog, schema]}. Unity compares names
 * case-insensitively, so the catalog comparison ignores case; the path keeps the SQL's spelling.
 */
final class UnityViewNames implements ViewSqlNames {
  private final String catalog;

  /** @param catalog the Integration's {@code catalog} property, or {@code null} */
  UnityViewNames(String catalog) {
    this.catalog = catalog;
  }

  @Override
  public Optional<NamespacePath> namespace(UpstreamView view, List<String> qualifier) {
    switch (qualifier.size()) {
      case 0:
        return Optional.of(view.defaultNamespace());
      case 1:
        String viewCatalog = view.defaultCatalog() != null ? view.defaultCatalog() : catalog;
        return viewCatalog == null ? Optional.empty()
            : Optional.of(schema(viewCatalog, qualifier.get(0)));
      case 2:
        if (catalog != null && !catalog.equalsIgnoreCase(qualifier.get(0))) {
          return Optional.empty();
        }
        return Optional.of(schema(qualifier.get(0), qualifier.get(1)));
      default:
        return Optional.empty(); // Unity has no fourth level
    }
  }

  private NamespacePath schema(String unityCatalog, String schema) {
    return catalog != null ? NamespacePath.of(schema) : NamespacePath.of(unityCatalog, schema);
  }
}
