package io.icegate.bench.delta;

import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.icegate.access.delta.fixture.KernelTableWriter;
import io.icegate.access.delta.iceberg.DeltaVersionCapture;
import io.icegate.access.delta.iceberg.DeltaVersionCapture.Captured;
import io.icegate.access.delta.iceberg.ManifestListCache;
import io.icegate.gateway.fileio.LocalFileIO;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.io.FileIO;

/**
 * The table on local disk, read by Kernel's {@link DefaultEngine} over Hadoop's local file system,
 * generated files written to a {@code file:} warehouse through the server's {@link LocalFileIO}.
 * Production never reads a Delta log this way: Hadoop's local file system lists the whole {@code
 * _delta_log} directory and stats each entry, which {@link S3ProxyTable} does not pay.
 */
final class LocalTable implements StoredTable {

  /**
   * One Hadoop configuration for every engine of the run: a new one parses Hadoop's XML defaults
   * on first use (tens of milliseconds), a cost of this store's engines only (the server's engines
   * read S3 through icegate's own file system client, without Hadoop's configuration), which would
   * otherwise be part of every phase.
   */
  private static final Configuration HADOOP = new Configuration();

  private final Path root;
  private final KernelTableWriter writer;
  // the server's FileIO for a file: warehouse (Hadoop's forks a chmod per file it creates)
  private final FileIO io = new LocalFileIO();
  // the gateway's reconciler keeps one for its lifetime, and each capture goes through it
  private final ManifestListCache manifestLists = new ManifestListCache();

  LocalTable() throws IOException {
    root = Files.createTempDirectory("icegate-delta-bench");
    writer = new KernelTableWriter(root.resolve("lake"), null, null);
  }

  @Override
  public KernelTableWriter writer() {
    return writer;
  }

  @Override
  public int publishTable() {
    return 0;
  }

  @Override
  public void publishCommit(long version) {}

  @Override
  public Engine scanEngine() {
    return DefaultEngine.create(HADOOP);
  }

  @Override
  public String location() {
    return writer.location(DeltaCaptureBench.TABLE);
  }

  /** As {@code DeltaLog.captureChanges} calls it: the capture loads the version itself. */
  @Override
  public Captured capture(Captured previous, int iteration) {
    String generated =
        root.resolve("warehouse-" + iteration).toUri().toString().replaceAll("/$", "");
    return DeltaVersionCapture.captureChanges(
        DefaultEngine.create(HADOOP),
        location(),
        Optional.empty(),
        previous == null ? null : previous.metadata(),
        Optional.ofNullable(previous).map(Captured::deltaState),
        new DeltaVersionCapture.Target("bench/t", generated, manifestLists.around(io), io));
  }

  @Override
  public void close() throws IOException {
    DeltaCaptureBench.deleteRecursively(root);
  }
}
