package io.icegate.storage.fdb;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDB;
import com.apple.foundationdb.FDBException;
import io.icegate.core.store.KvStoreFailureException;
import io.icegate.core.store.engine.AccessMode;
import io.icegate.core.store.engine.EngineTransaction;
import io.icegate.core.store.engine.KvEngine;
import io.icegate.storage.fdb.FdbErrorCodes.Phase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The FoundationDB {@link KvEngine}: one fdb-java {@link Database} per cluster file, one raw
 * transaction per {@link #begin}. Keys arrive already encoded by core's {@code KeyLayout} (tuple
 * layer) and are written as given, so a FoundationDB store and a SQLite store hold the same bytes.
 *
 * <p>Needs the FoundationDB client library {@code libfdb_c} (7.3 or newer) on the host; fdb-java
 * only ships the JNI bridge to it.
 */
public final class FdbEngine implements KvEngine {

  /** The fdb-java / libfdb_c API version this driver is written against (FoundationDB 7.3). */
  public static final int API_VERSION = 730;

  /** Why fdb-java could not be loaded, kept because later attempts only say "could not init". */
  private static LinkageError firstLoadFailure;

  private final String clusterFile;
  private final Database db;
  private final AtomicBoolean closed = new AtomicBoolean();

  // Package-private for tests, which pass a stand-in Database (no libfdb_c here).
  FdbEngine(String clusterFile, Database db) {
    this.clusterFile = clusterFile;
    this.db = db;
  }

  /**
   * Opens the database described by a cluster file. Connecting is lazy: a cluster that is down
   * shows up at the first transaction, not here.
   *
   * @param clusterFile path of a FoundationDB cluster file, e.g. {@code /etc/foundationdb/fdb.cluster}
   * @throws KvStoreFailureException the file is not readable, {@code libfdb_c} is not installed or
   *     is older than API version 730, or the client rejects the file
   * @throws IllegalArgumentException the path is empty
   */
  public static FdbEngine open(String clusterFile) {
    Objects.requireNonNull(clusterFile, "clusterFile");
    if (clusterFile.isBlank()) {
      throw new IllegalArgumentException("cluster file path is empty");
    }
    if (!Files.isReadable(Path.of(clusterFile))) {
      throw new KvStoreFailureException(
          "FoundationDB cluster file " + clusterFile + " does not exist or is not readable");
    }
    FDB fdb = client();
    try {
      return new FdbEngine(clusterFile, fdb.open(clusterFile));
    } catch (FDBException e) {
      throw new KvStoreFailureException(
          "cannot open FoundationDB cluster file " + clusterFile + ": "
              + FdbErrorCodes.toKvStoreException(e, Phase.BEFORE_COMMIT).getMessage(),
          e);
    }
  }

  @Override
  public EngineTransaction begin(AccessMode mode) {
    if (closed.get()) {
      throw new KvStoreFailureException("store " + describe() + " is closed");
    }
    try {
      return new FdbEngineTransaction(db.createTransaction());
    } catch (RuntimeException e) {
      throw FdbErrorCodes.toKvStoreException(e, Phase.BEFORE_COMMIT);
    }
  }

  /** {@code fdb:<cluster file path>}. */
  @Override
  public String describe() {
    return "fdb:" + clusterFile;
  }

  /**
   * Closes the database handle. The client's network thread keeps running until the JVM exits:
   * FoundationDB cannot restart it within one process, so stopping it would break any later open.
   */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      db.close();
    }
  }

  /**
   * The process-wide client at {@link #API_VERSION}; fdb-java allows one API version per JVM and
   * returns the same instance when asked again for the same version.
   */
  private static synchronized FDB client() {
    try {
      return FDB.selectAPIVersion(API_VERSION);
    } catch (LinkageError e) {
      // UnsatisfiedLinkError the first time; NoClassDefFoundError afterwards, because fdb-java's
      // class initialization failed for good. Explain with the first, which names the cause.
      if (firstLoadFailure == null) {
        firstLoadFailure = e;
      }
      throw nativeClientUnavailable(firstLoadFailure);
    } catch (FDBException e) {
      throw new KvStoreFailureException(
          "the FoundationDB client library rejected API version " + API_VERSION + ": "
              + FdbErrorCodes.toKvStoreException(e, Phase.BEFORE_COMMIT).getMessage(),
          e);
    } catch (IllegalArgumentException e) {
      throw new KvStoreFailureException(
          "FoundationDB API version " + API_VERSION + " cannot be selected in this JVM: "
              + e.getMessage(),
          e);
    }
  }

  static KvStoreFailureException nativeClientUnavailable(LinkageError failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (String.valueOf(t.getMessage()).contains("libfdb_c")) {
        return new KvStoreFailureException(
            "the FoundationDB client library libfdb_c is not installed on this host (or not on the"
                + " library path); install the FoundationDB client package, version 7.3 or newer,"
                + " to use a fdb: store (" + t.getMessage() + ")",
            failure);
      }
    }
    // fdb-java unpacks its JNI bridge (libfdb_java) into java.io.tmpdir before loading libfdb_c.
    return new KvStoreFailureException(
        "fdb-java could not load its native bridge libfdb_java from java.io.tmpdir="
            + System.getProperty("java.io.tmpdir")
            + " (the directory must exist, be writable and allow loading libraries): " + failure,
        failure);
  }
}
