package io.icegate.access.connection;

/**
 * The catalog protocol a provider speaks; it names the upstream API, not the table format (a Unity
 * catalog serves Delta tables, an Iceberg REST catalog Iceberg ones).
 */
public enum CatalogProtocol {
  ICEBERG_REST,
  UNITY,
  DELTA_SHARING
}
