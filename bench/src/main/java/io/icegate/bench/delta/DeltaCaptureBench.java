package io.icegate.bench.delta;

import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampType;
import io.delta.kernel.utils.CloseableIterator;
import io.icegate.access.delta.fixture.KernelTableWriter;
import io.icegate.access.delta.iceberg.DeltaVersionCapture;
import io.icegate.access.delta.iceberg.DeltaVersionCapture.Captured;
import io.icegate.gateway.fileio.LocalFileIO;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.io.FileIO;

/**
 * Delta capture against Delta Kernel's bare snapshot scan (issue 26, bench bullet). A Delta table
 * of {@code partitions × filesPerPartition} active files is written with Delta Kernel's own writer
 * on local disk: one commit per partition, each adding one small Parquet file written by Kernel
 * (statistics as Kernel collects them) and {@code filesPerPartition - 1} byte-identical copies
 * under new names (writing 10,000 files through Parquet takes half an hour on a shared machine,
 * and the capture reads the log, not the files), then a checkpoint, as a table of that size has. Each counted iteration
 * times, in the same JVM and the same run:
 *
 * <ol>
 *   <li>{@code scan}: Kernel loads the latest snapshot and lists every active file with its
 *       statistics ({@code getScanFiles(engine, true)}), reading each file's path: what any reader
 *       of the table pays, the baseline;
 *   <li>{@code full}: a first capture of the same version ({@link DeltaVersionCapture}: snapshot,
 *       scan, metrics, manifests, manifest list; no file validation);
 *   <li>{@code incremental}: after one more small commit (one file), the capture of that version
 *       from the full capture's metadata.
 * </ol>
 *
 * Ratios are per iteration ({@code full/scan}, {@code incremental/full}), of wall-clock time and of
 * the process's CPU time (all threads: Iceberg writes manifests on its worker pool); on a shared
 * machine compare those, not the absolute times, and the CPU ratios first. One warm-up round first,
 * printed, not counted.
 *
 * <pre>
 * java -cp bench/target/icegate-bench.jar io.icegate.bench.delta.DeltaCaptureBench \
 *     [partitions=100] [filesPerPartition=100] [iterations=5]
 * </pre>
 */
public final class DeltaCaptureBench {

  static final StructType SCHEMA =
      new StructType()
          .add("id", LongType.LONG, false)
          .add("name", StringType.STRING, true)
          .add("ts", TimestampType.TIMESTAMP, true)
          .add("region", StringType.STRING, true);

  /**
   * One Hadoop configuration for every engine of the run: a new one parses Hadoop's XML defaults
   * on first use (tens of milliseconds), a cost of this harness's local-disk engine only (the
   * server's engines read S3 through icegate's own file system client, without Hadoop's
   * configuration), which would otherwise be part of every phase.
   */
  private static final Configuration HADOOP = new Configuration();

  private DeltaCaptureBench() {}

  /** What to measure. */
  public record Plan(int partitions, int filesPerPartition, int iterations) {}

  /** One phase: wall-clock and process CPU milliseconds (all threads, JIT and GC included). */
  public record Cost(long millis, long cpuMillis) {}

  /**
   * One counted iteration.
   *
   * @param pathsOnly Kernel's scan reading only each file's path (the baseline before 2026-12-02
   *     afternoon)
   * @param scan Kernel's scan reading what a reader and the capture read of each file: the baseline
   */
  public record Measurement(
      int iteration, Cost pathsOnly, Cost scan, Cost full, Cost incremental, int files) {
    double fullOverPathsOnlyCpu() {
      return full.cpuMillis() / (double) Math.max(1, pathsOnly.cpuMillis());
    }

    double fullOverScan() {
      return full.millis() / (double) Math.max(1, scan.millis());
    }

    double incrementalOverFull() {
      return incremental.millis() / (double) Math.max(1, full.millis());
    }

    double fullOverScanCpu() {
      return full.cpuMillis() / (double) Math.max(1, scan.cpuMillis());
    }

    double incrementalOverFullCpu() {
      return incremental.cpuMillis() / (double) Math.max(1, full.cpuMillis());
    }
  }

  public static void main(String[] args) throws Exception {
    Plan plan = new Plan(arg(args, 0, 100), arg(args, 1, 100), arg(args, 2, 5));
    double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    List<Measurement> measurements = run(plan, System.out);
    double loadAfter = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    System.out.printf(
        Locale.ROOT, "load average %.1f before, %.1f after%n", loadBefore, loadAfter);
    System.out.printf(
        Locale.ROOT,
        "median wall full/scan %.2fx, incremental/full %.3fx; median cpu full/scan %.2fx,"
            + " incremental/full %.3fx; median cpu full/(paths-only scan) %.2fx%n",
        median(measurements.stream().map(Measurement::fullOverScan).toList()),
        median(measurements.stream().map(Measurement::incrementalOverFull).toList()),
        median(measurements.stream().map(Measurement::fullOverScanCpu).toList()),
        median(measurements.stream().map(Measurement::incrementalOverFullCpu).toList()),
        median(measurements.stream().map(Measurement::fullOverPathsOnlyCpu).toList()));
  }

  /** Writes the table, warms up, measures. */
  public static List<Measurement> run(Plan plan, PrintStream out) throws IOException {
    Path root = Files.createTempDirectory("icegate-delta-bench");
    try {
      KernelTableWriter writer = new KernelTableWriter(root.resolve("lake"), null, null);
      long started = System.nanoTime();
      write(writer, plan);
      int files = plan.partitions() * plan.filesPerPartition();
      out.printf(
          Locale.ROOT,
          "table of %d files in %d partitions written in %d s%n",
          files,
          plan.partitions(),
          (System.nanoTime() - started) / 1_000_000_000L);
      String table = writer.location("t");
      // the server's FileIO for a file: warehouse (Hadoop's forks a chmod per file it creates)
      FileIO io = new LocalFileIO();
      List<Measurement> measurements = new ArrayList<>();
      for (int i = 0; i <= plan.iterations(); i++) {
        Cost pathsOnly = timed(() -> scan(table, true));
        Cost scan = timed(() -> scan(table, false));
        String generated = root.resolve("warehouse-" + i).toUri().toString().replaceAll("/$", "");
        Captured[] full = new Captured[1];
        Cost fullCost = timed(() -> full[0] = capture(table, null, generated, io));
        // one more small commit, captured from the full capture
        writer.appendFiles(
            "t",
            Map.of("region", Literal.ofString("p000")),
            List.of(List.<Object[]>of(row(1_000_000L + i, "p000"))));
        Captured[] incremental = new Captured[1];
        Cost incrementalCost = timed(() -> incremental[0] = capture(table, full[0], generated, io));
        if (!incremental[0].incremental() || incremental[0].addedDataFiles().size() != 1) {
          throw new IllegalStateException("the capture after one commit was not incremental");
        }
        // the next iteration's full capture sees one more file; the baseline scan does too
        Measurement m = new Measurement(i, pathsOnly, scan, fullCost, incrementalCost, files + i + 1);
        out.printf(
            Locale.ROOT,
            "%s: scan %d ms (cpu %d; paths only %d ms, cpu %d), full capture %d ms (cpu %d;"
                + " %.2fx scan, cpu %.2fx), incremental %d ms (cpu %d; %.3fx full, cpu %.3fx)%n",
            i == 0 ? "warm-up" : "iteration " + i,
            scan.millis(),
            scan.cpuMillis(),
            pathsOnly.millis(),
            pathsOnly.cpuMillis(),
            fullCost.millis(),
            fullCost.cpuMillis(),
            m.fullOverScan(),
            m.fullOverScanCpu(),
            incrementalCost.millis(),
            incrementalCost.cpuMillis(),
            m.incrementalOverFull(),
            m.incrementalOverFullCpu());
        if (i > 0) {
          measurements.add(m);
        }
      }
      return measurements;
    } finally {
      deleteRecursively(root);
    }
  }

  private static void write(KernelTableWriter writer, Plan plan) {
    writer.create("t", SCHEMA, List.of("region"), Map.of());
    long id = 0;
    for (int p = 0; p < plan.partitions(); p++) {
      String region = String.format(Locale.ROOT, "p%03d", p);
      writer.appendCopies(
          "t",
          Map.of("region", Literal.ofString(region)),
          List.of(row(id++, region), row(id++, region)),
          plan.filesPerPartition());
    }
    writer.checkpoint("t");
  }

  private static Object[] row(long id, String region) {
    return new Object[] {id, "name-" + id, 1_700_000_000_000_000L + id, region};
  }

  /**
   * The baseline: Kernel's own snapshot load and scan of every active file, each file's row read
   * as a reader planning a read of the table reads it and as the capture reads it (path and size,
   * partition values, deletion vector, statistics text); with {@code pathsOnly}, only the path
   * (the baseline before 2026-12-02 afternoon, printed beside it).
   */
  private static void scan(String table, boolean pathsOnly) {
    Engine engine = DefaultEngine.create(HADOOP);
    Snapshot snapshot = TableManager.loadSnapshot(table).build(engine);
    long seen = 0;
    try (CloseableIterator<FilteredColumnarBatch> batches =
        snapshot.getScanBuilder().build().getScanFiles(engine, true)) {
      while (batches.hasNext()) {
        try (CloseableIterator<Row> rows = batches.next().getRows()) {
          while (rows.hasNext()) {
            Row row = rows.next();
            seen += InternalScanFileUtils.getAddFileStatus(row).getPath().length();
            if (!pathsOnly) {
              seen += InternalScanFileUtils.getPartitionValues(row).size();
              seen += InternalScanFileUtils.getDeletionVectorDescriptorFromRow(row) == null ? 0 : 1;
              Row add = row.getStruct(InternalScanFileUtils.ADD_FILE_ORDINAL);
              int stats = InternalScanFileUtils.ADD_FILE_STATS_ORDINAL;
              seen += add.isNullAt(stats) ? 0 : add.getString(stats).length();
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (seen == 0) {
      throw new IllegalStateException("the scan listed no file");
    }
  }

  /** As {@code DeltaLog.captureChanges} calls it: the capture loads the version itself. */
  private static Captured capture(String table, Captured previous, String generated, FileIO io) {
    Engine engine = DefaultEngine.create(HADOOP);
    return DeltaVersionCapture.captureChanges(
        engine,
        table,
        Optional.empty(),
        previous == null ? null : previous.metadata(),
        Optional.ofNullable(previous).map(Captured::deltaState),
        new DeltaVersionCapture.Target("bench/t", generated, io, io));
  }

  private static Cost timed(Runnable work) {
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpu = os.getProcessCpuTime();
    long start = System.nanoTime();
    work.run();
    return new Cost(
        (System.nanoTime() - start) / 1_000_000L, (os.getProcessCpuTime() - cpu) / 1_000_000L);
  }

  static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    return sorted.isEmpty() ? Double.NaN : sorted.get(sorted.size() / 2);
  }

  private static int arg(String[] args, int i, int fallback) {
    return args.length > i ? Integer.parseInt(args[i]) : fallback;
  }

  private static void deleteRecursively(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
