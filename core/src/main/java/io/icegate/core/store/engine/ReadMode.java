package io.icegate.core.store.engine;

/** Whether a read adds a read-conflict range (FoundationDB's serializable vs snapshot reads). */
public enum ReadMode {
  SERIALIZABLE,
  SNAPSHOT
}
