package io.icegate.core.store.engine;

/** Whether a transaction may write; engines use it to pick their locking (SQLite: IMMEDIATE). */
public enum AccessMode {
  READ_ONLY,
  READ_WRITE
}
