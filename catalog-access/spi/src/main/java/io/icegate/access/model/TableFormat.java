package io.icegate.access.model;

/** The table format a provider determined for an upstream table. */
public enum TableFormat {
  ICEBERG,
  DELTA,
  PARQUET,
  UNKNOWN
}
