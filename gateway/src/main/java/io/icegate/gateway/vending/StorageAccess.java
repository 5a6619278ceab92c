package io.icegate.gateway.vending;

/**
 * What vended storage credentials may do under a table's location. The gateway picks it from the
 * caller's token role: a {@code reader} token can only read through the catalog, so its
 * credentials only read; a {@code writer} (or {@code admin}) token gets read-write, because Iceberg
 * clients write data files with the FileIO of the load-table (or create-table) answer before they
 * commit, and a later refresh through the credentials route must keep that ability.
 */
public enum StorageAccess {
  /** List and read objects under the location. */
  READ,
  /** Also write and delete objects under the location. */
  READ_WRITE
}
