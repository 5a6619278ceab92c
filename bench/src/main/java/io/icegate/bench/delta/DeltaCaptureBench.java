package io.icegate.bench.delta;

import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
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
import java.util.stream.Stream;

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
 *       from the full capture's metadata;
 *   <li>{@code unchanged}: the capture once more, with no commit since (a scheduled refresh of a
 *       table nobody wrote to): it must return the incremental capture's metadata itself.
 * </ol>
 *
 * Two stores ({@link Store}, the fourth argument, printed first):
 *
 * <ul>
 *   <li>{@code local} (the default): the table on local disk, read by Kernel's default engine over
 *       Hadoop's local file system, generated files in a {@code file:} warehouse ({@link
 *       LocalTable}). Production never reads a log this way; Hadoop lists and stats every log file
 *       to find the commits since, half of an incremental capture here.
 *   <li>{@code s3proxy}: the production path. The table is copied (untimed) to s3proxy started in
 *       this JVM on loopback, both the scan and the captures read it through icegate's {@code
 *       KernelS3FileSystem}, the captures are {@code DeltaLog.captureChanges} calls, and the
 *       generated files go to the Catalog's {@code s3://} warehouse on the same s3proxy through the
 *       gateway's {@code CatalogFileIO} ({@link S3ProxyTable}). s3proxy's own CPU (HTTP server,
 *       file-system blob store) is in the process CPU of every phase, baseline included.
 * </ul>
 *
 * Ratios are per iteration ({@code full/scan}, {@code incremental/full}), of wall-clock time and of
 * the process's CPU time (all threads: Iceberg writes manifests on its worker pool); on a shared
 * machine compare those, not the absolute times, and the CPU ratios first. One warm-up round first,
 * printed, not counted.
 *
 * <pre>
 * java -cp bench/target/icegate-bench.jar io.icegate.bench.delta.DeltaCaptureBench \
 *     [partitions=100] [filesPerPartition=100] [iterations=5] [store=local|s3proxy] [warmups=1]
 * </pre>
 */
public final class DeltaCaptureBench {

  static final StructType SCHEMA =
      new StructType()
          .add("id", LongType.LONG, false)
          .add("name", StringType.STRING, true)
          .add("ts", TimestampType.TIMESTAMP, true)
          .add("region", StringType.STRING, true);

  /** The table's path under the writer's directory and in the bucket. */
  static final String TABLE = "t";

  private DeltaCaptureBench() {}

  /** Where the table is read from. */
  public enum Store {
    /** Local disk through Hadoop's local file system ({@link LocalTable}). */
    LOCAL,
    /** s3proxy on loopback, read as production reads S3 ({@link S3ProxyTable}). */
    S3PROXY;

    /** {@code local} or {@code s3proxy}, optionally as {@code store=...}. */
    static Store parse(String text) {
      String name = text.startsWith("store=") ? text.substring("store=".length()) : text;
      return switch (name) {
        case "local" -> LOCAL;
        case "s3proxy" -> S3PROXY;
        default -> throw new IllegalArgumentException(
            "unknown store " + text + " (local or s3proxy)");
      };
    }

    String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    StoredTable open() throws Exception {
      return this == LOCAL ? new LocalTable() : new S3ProxyTable();
    }
  }

  /**
   * What to measure, and where.
   *
   * @param warmups rounds run and printed before the counted ones, not counted: the capture code
   *     is JIT-compiled over the first rounds (a gateway runs captures all day), so a run with one
   *     warm-up measures its first iterations cold
   */
  public record Plan(
      int partitions, int filesPerPartition, int iterations, Store store, int warmups) {
    public Plan {
      if (warmups < 1) {
        throw new IllegalArgumentException("at least one warm-up round: " + warmups);
      }
    }

    /** With one warm-up round. */
    public Plan(int partitions, int filesPerPartition, int iterations, Store store) {
      this(partitions, filesPerPartition, iterations, store, 1);
    }

    /** On local disk, as before the store could be chosen. */
    public Plan(int partitions, int filesPerPartition, int iterations) {
      this(partitions, filesPerPartition, iterations, Store.LOCAL);
    }
  }

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
      int iteration,
      Cost pathsOnly,
      Cost scan,
      Cost full,
      Cost incremental,
      Cost unchanged,
      int files) {
    double unchangedOverFull() {
      return unchanged.millis() / (double) Math.max(1, full.millis());
    }

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
    Plan plan =
        new Plan(
            arg(args, 0, 100),
            arg(args, 1, 100),
            arg(args, 2, 5),
            args.length > 3 ? Store.parse(args[3]) : Store.LOCAL,
            arg(args, 4, 1));
    double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    List<Measurement> measurements = run(plan, System.out);
    double loadAfter = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    System.out.printf(
        Locale.ROOT, "load average %.1f before, %.1f after%n", loadBefore, loadAfter);
    System.out.printf(
        Locale.ROOT,
        "median wall full/scan %.2fx, incremental/full %.3fx; median cpu full/scan %.2fx,"
            + " incremental/full %.3fx; median cpu full/(paths-only scan) %.2fx;"
            + " median wall unchanged/full %.3fx%n",
        median(measurements.stream().map(Measurement::fullOverScan).toList()),
        median(measurements.stream().map(Measurement::incrementalOverFull).toList()),
        median(measurements.stream().map(Measurement::fullOverScanCpu).toList()),
        median(measurements.stream().map(Measurement::incrementalOverFullCpu).toList()),
        median(measurements.stream().map(Measurement::fullOverPathsOnlyCpu).toList()),
        median(measurements.stream().map(Measurement::unchangedOverFull).toList()));
  }

  /** Writes the table, copies it to the store, warms up, measures. */
  public static List<Measurement> run(Plan plan, PrintStream out) throws Exception {
    out.printf(Locale.ROOT, "store %s%n", plan.store().label());
    try (StoredTable table = plan.store().open()) {
      KernelTableWriter writer = table.writer();
      long started = System.nanoTime();
      write(writer, plan);
      int files = plan.partitions() * plan.filesPerPartition();
      out.printf(
          Locale.ROOT,
          "table of %d files in %d partitions written in %d s%n",
          files,
          plan.partitions(),
          (System.nanoTime() - started) / 1_000_000_000L);
      started = System.nanoTime();
      int copied = table.publishTable();
      if (copied > 0) {
        out.printf(
            Locale.ROOT,
            "%d files copied to %s in %d s%n",
            copied,
            plan.store().label(),
            (System.nanoTime() - started) / 1_000_000_000L);
      }
      List<Measurement> measurements = new ArrayList<>();
      List<long[]> heads = new ArrayList<>();
      for (int i = 1 - plan.warmups(); i <= plan.iterations(); i++) {
        Cost pathsOnly = timed(() -> scan(table, true));
        Cost scan = timed(() -> scan(table, false));
        int iteration = i;
        Captured[] full = new Captured[1];
        Cost fullCost = timed(() -> full[0] = table.capture(null, iteration));
        // one more small commit, captured from the full capture
        long version =
            writer.appendFiles(
                TABLE,
                Map.of("region", Literal.ofString("p000")),
                List.of(List.<Object[]>of(row(1_000_000L + i, "p000"))));
        table.publishCommit(version);
        Captured[] incremental = new Captured[1];
        Cost incrementalCost = timed(() -> incremental[0] = table.capture(full[0], iteration));
        if (!incremental[0].incremental() || incremental[0].addedDataFiles().size() != 1) {
          throw new IllegalStateException("the capture after one commit was not incremental");
        }
        // and once more with no commit since: what a scheduled refresh of an unchanged table costs
        Captured[] again = new Captured[1];
        Cost unchangedCost = timed(() -> again[0] = table.capture(incremental[0], iteration));
        if (again[0].metadata() != incremental[0].metadata()) {
          throw new IllegalStateException("the capture with no commit since changed the table");
        }
        // a reconcile's read of the head: in full, then from the head read one commit before,
        // then once more with nothing new
        Cost headFull = timed(() -> table.readHead(false));
        Cost headOneCommit = timed(() -> table.readHead(true));
        Cost headUnchanged = timed(() -> table.readHead(true));
        if (i > 0 && table.readHead(true)) {
          heads.add(new long[] {headFull.millis(), headOneCommit.millis(), headUnchanged.millis()});
          out.printf(
              Locale.ROOT,
              "  head: full load %d ms, remembered after one commit %d ms, remembered unchanged %d"
                  + " ms%n",
              headFull.millis(),
              headOneCommit.millis(),
              headUnchanged.millis());
        }
        // the next iteration's full capture sees one more file; the baseline scan does too
        Measurement m =
            new Measurement(
                i, pathsOnly, scan, fullCost, incrementalCost, unchangedCost, files + i + 1);
        out.printf(
            Locale.ROOT,
            "%s: scan %d ms (cpu %d; paths only %d ms, cpu %d), full capture %d ms (cpu %d;"
                + " %.2fx scan, cpu %.2fx), incremental %d ms (cpu %d; %.3fx full, cpu %.3fx),"
                + " unchanged %d ms (cpu %d; %.3fx full)%n",
            i <= 0 ? "warm-up" : "iteration " + i,
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
            m.incrementalOverFullCpu(),
            unchangedCost.millis(),
            unchangedCost.cpuMillis(),
            m.unchangedOverFull());
        if (i > 0) {
          measurements.add(m);
        }
      }
      if (!heads.isEmpty()) {
        out.printf(
            Locale.ROOT,
            "median head: full load %.1f ms, remembered after one commit %.1f ms (%.3fx),"
                + " remembered unchanged %.1f ms (%.3fx)%n",
            median(heads.stream().map(h -> (double) h[0]).toList()),
            median(heads.stream().map(h -> (double) h[1]).toList()),
            median(heads.stream().map(h -> h[1] / (double) Math.max(1, h[0])).toList()),
            median(heads.stream().map(h -> (double) h[2]).toList()),
            median(heads.stream().map(h -> h[2] / (double) Math.max(1, h[0])).toList()));
      }
      return measurements;
    }
  }

  private static void write(KernelTableWriter writer, Plan plan) {
    writer.create(TABLE, SCHEMA, List.of("region"), Map.of());
    long id = 0;
    for (int p = 0; p < plan.partitions(); p++) {
      String region = String.format(Locale.ROOT, "p%03d", p);
      writer.appendCopies(
          TABLE,
          Map.of("region", Literal.ofString(region)),
          List.of(row(id++, region), row(id++, region)),
          plan.filesPerPartition());
    }
    writer.checkpoint(TABLE);
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
  private static void scan(StoredTable table, boolean pathsOnly) {
    Engine engine = table.scanEngine();
    Snapshot snapshot = TableManager.loadSnapshot(table.location()).build(engine);
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

  static void deleteRecursively(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
