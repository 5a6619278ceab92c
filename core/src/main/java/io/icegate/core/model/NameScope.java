package io.icegate.core.model;

import java.util.List;

/**
 * Where a display name must be unique. A closed family, so key encoding switches over it:
 *
 * <ul>
 *   <li>{@link AccountWide}: accounts (server-wide), catalogs (per account), and later
 *       integrations and overlays (per account).
 *   <li>{@link InCatalog}: a path inside one catalog. For a namespace it is the parent path (the
 *       empty path for top-level namespaces); for a table or view it is the namespace path.
 * </ul>
 */
public sealed interface NameScope {

  /** The single scope of account-wide (or, for accounts, server-wide) names. */
  NameScope ACCOUNT_WIDE = new AccountWide();

  /** A scope within a catalog; {@code path} keeps segment boundaries (["a.b"] is not ["a","b"]). */
  static InCatalog inCatalog(String catalogId, List<String> path) {
    return new InCatalog(catalogId, path);
  }

  /** Account-wide names (catalogs, integrations, overlays) or server-wide names (accounts). */
  record AccountWide() implements NameScope {}

  /**
   * Names under {@code path} in catalog {@code catalogId}.
   *
   * @param catalogId the catalog's immutable id
   * @param path namespace path, root to leaf, case-sensitive; empty for top-level namespaces
   */
  record InCatalog(String catalogId, List<String> path) implements NameScope {
    public InCatalog {
      Names.requireId(catalogId, "catalogId");
      path = Names.requirePath(path, true);
    }
  }
}
