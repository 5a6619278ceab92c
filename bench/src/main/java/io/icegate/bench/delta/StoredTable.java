package io.icegate.bench.delta;

import io.delta.kernel.engine.Engine;
import io.icegate.access.delta.fixture.KernelTableWriter;
import io.icegate.access.delta.iceberg.DeltaVersionCapture.Captured;

/**
 * The bench's Delta table as one store serves it ({@link LocalTable}: local disk through Hadoop;
 * {@link S3ProxyTable}: s3proxy on loopback through icegate's S3 client, the production path):
 * where the writer writes, what the baseline scan reads with, and how a capture is called. Nothing
 * done here between two timed phases is timed.
 */
sealed interface StoredTable extends AutoCloseable permits LocalTable, S3ProxyTable {

  /** Writes the table, always on local disk (Kernel's writer has no S3 file system here). */
  KernelTableWriter writer();

  /**
   * Makes the table the writer wrote readable from this store (its log: no phase reads a data
   * file).
   *
   * @return how many files were copied (0 when the writer's directory is the store)
   */
  int publishTable();

  /** Makes the commit of {@code version} readable from this store. */
  void publishCommit(long version);

  /** A fresh engine for the baseline scan, reading this store as the captures do. */
  Engine scanEngine();

  /** The table's location as Kernel is given it. */
  String location();

  /**
   * A capture of the latest version as production calls it on this store, with generated files in
   * a fresh prefix per {@code iteration}.
   *
   * @param previous the full capture an incremental one extends, or null for a full capture
   */
  Captured capture(Captured previous, int iteration);

  /**
   * Reads the table's newest version as a reconcile does for the table's definition: Kernel's
   * full load, or from the head this process read before ({@code DeltaHeads}).
   *
   * @return false where this store has no such read (local disk: the reconcile reads S3)
   */
  default boolean readHead(boolean remembered) {
    return false;
  }

  /** Removes the table, the generated files and the store. */
  @Override
  void close() throws Exception;
}
