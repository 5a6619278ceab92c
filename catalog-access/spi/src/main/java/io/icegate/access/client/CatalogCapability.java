package io.icegate.access.client;

/** One thing a provider can do; {@link CatalogCapabilities} holds the set. */
public enum CatalogCapability {
  /** Namespaces nest below other namespaces (Iceberg REST); without it, paths have fixed depth. */
  HIERARCHICAL_NAMESPACES,
  /** Table listing and table metadata loading. */
  TABLES,
  /** View listing. Only together with {@link #VIEW_METADATA}. */
  VIEW_LISTING,
  /** View metadata loading. Only together with {@link #VIEW_LISTING}. */
  VIEW_METADATA,
  /** Table-scoped storage credentials through the protocol's vending channel. */
  CREDENTIAL_VENDING,
  /** A non-mutating storage read with vended credentials. */
  STORAGE_VALIDATION,
  /** Upstream table ids that survive renames. */
  STABLE_TABLE_IDENTITY
}
