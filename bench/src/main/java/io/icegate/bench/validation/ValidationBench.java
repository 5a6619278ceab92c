package io.icegate.bench.validation;

import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.access.storage.VendedStorageCredentials;
import io.icegate.bench.overlay.HeapWatch;
import io.icegate.filecheck.DataFileCheck;
import io.icegate.filecheck.FileProblem;
import io.icegate.filecheck.ValidationFileIO;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericAppenderFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.types.Types;

/**
 * Validation of a table of many small Parquet files (issue 10 "Must show", bench bullet): times
 * {@link DataFileCheck#check} over the table's current snapshot and records heap high-water marks.
 * The table is a real one: Iceberg's {@link JdbcCatalog} (H2 in memory) commits one append of
 * {@code files} Parquet files, each written by Iceberg's generic appender, on local disk ({@code
 * local}, read through {@link ValidationFileIO#localOnly()}) and/or on s3proxy on loopback ({@code
 * s3proxy}, read through {@link ValidationFileIO} holding vended-style keys). The metadata goes
 * through its JSON form first, as capture hands it over.
 *
 * <p>One warm-up check per store, then {@code iterations} counted ones, each after {@code
 * System.gc()} and a reset of the heap pools' peaks. The harness fails if any check finds a
 * problem.
 *
 * <pre>
 * java -Xmx256m -cp bench/target/icegate-bench.jar io.icegate.bench.validation.ValidationBench \
 *     [files=1000] [rowsPerFile=10] [iterations=3] [stores=local,s3proxy]
 * </pre>
 */
public final class ValidationBench {

  static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "amount", Types.DoubleType.get()));

  private ValidationBench() {}

  /** What to measure. */
  public record Plan(int files, int rowsPerFile, int iterations, List<String> stores) {}

  /** One counted check. */
  public record Measurement(
      String store, int iteration, long millis, int problems, HeapWatch.Peak heap) {}

  public static void main(String[] args) throws Exception {
    Plan plan =
        new Plan(
            arg(args, 0, 1000),
            arg(args, 1, 10),
            arg(args, 2, 3),
            List.of((args.length > 3 ? args[3] : "local,s3proxy").split(",")));
    double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    List<Measurement> measurements = run(plan, System.out);
    double loadAfter = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    System.out.printf(
        Locale.ROOT,
        "load average %.1f before, %.1f after; max heap %d MB%n",
        loadBefore,
        loadAfter,
        HeapWatch.maxHeapBytes() >> 20);
    for (String store : plan.stores()) {
      List<Measurement> mine =
          measurements.stream().filter(m -> m.store().equals(store)).toList();
      System.out.printf(
          Locale.ROOT,
          "%s: median %d ms for %d files (%.2f ms per file)%n",
          store,
          medianMillis(mine),
          plan.files(),
          medianMillis(mine) / (double) plan.files());
    }
  }

  /**
   * Builds each store's table, warms up, and measures.
   *
   * @throws IllegalStateException when a check reports a problem on the good table
   */
  public static List<Measurement> run(Plan plan, PrintStream out) throws Exception {
    List<Measurement> measurements = new ArrayList<>();
    try (HeapWatch heap = new HeapWatch()) {
      for (String store : plan.stores()) {
        switch (store) {
          case "local" -> measurements.addAll(runLocal(plan, heap, out));
          case "s3proxy" -> measurements.addAll(runS3Proxy(plan, heap, out));
          default -> throw new IllegalArgumentException("unknown store " + store);
        }
      }
    }
    return measurements;
  }

  private static List<Measurement> runLocal(Plan plan, HeapWatch heap, PrintStream out)
      throws Exception {
    Path dir = Files.createTempDirectory("icegate-validation-bench");
    try {
      Map<String, String> properties = new HashMap<>();
      properties.put(CatalogProperties.WAREHOUSE_LOCATION, "file:" + dir);
      JdbcCatalog catalog = catalog(properties, true);
      try (catalog) {
        TableMetadata metadata = buildTable(catalog, plan, out, "local");
        try (ValidationFileIO io = ValidationFileIO.localOnly()) {
          return measure("local", metadata, io, plan, heap, out);
        }
      }
    } finally {
      deleteTree(dir);
    }
  }

  private static List<Measurement> runS3Proxy(Plan plan, HeapWatch heap, PrintStream out)
      throws Exception {
    ObjectStoreFixture.useChecksumsOnlyWhenRequired();
    try (ObjectStoreFixture objects = ObjectStoreFixture.startS3Proxy()) {
      objects.createBucket("bench");
      Map<String, String> properties = new HashMap<>(objects.s3FileIoProperties());
      properties.put(CatalogProperties.WAREHOUSE_LOCATION, "s3://bench/warehouse");
      properties.put(CatalogProperties.FILE_IO_IMPL, "org.apache.iceberg.aws.s3.S3FileIO");
      JdbcCatalog catalog = catalog(properties, false);
      try (catalog) {
        TableMetadata metadata = buildTable(catalog, plan, out, "s3proxy");
        Map<String, String> vended = new HashMap<>(objects.s3Settings());
        vended.put(VendedStorageCredentials.S3_ACCESS_KEY_ID, objects.accessKeyId());
        vended.put(VendedStorageCredentials.S3_SECRET_ACCESS_KEY, objects.secretAccessKey());
        vended.put(VendedStorageCredentials.S3_SESSION_TOKEN, "bench-session");
        ValidationFileIO.Opened opened =
            ValidationFileIO.open(
                metadata.location(),
                Optional.of(
                    new VendedStorageCredentials(
                        metadata.location(), vended, Instant.now().plusSeconds(3600))),
                Map.of(),
                false,
                OutboundAddressPolicy.defaults());
        if (!(opened instanceof ValidationFileIO.Ready ready)) {
          throw new IllegalStateException("refused: " + opened);
        }
        try (FileIO io = ready.io()) {
          return measure("s3proxy", metadata, io, plan, heap, out);
        }
      }
    }
  }

  private static JdbcCatalog catalog(Map<String, String> properties, boolean hadoop) {
    properties.put(
        CatalogProperties.URI, "jdbc:h2:mem:validation-bench-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    JdbcCatalog catalog = new JdbcCatalog();
    if (hadoop) {
      catalog.setConf(new Configuration()); // HadoopFileIO, the catalog's default for file:
    }
    catalog.initialize("bench", properties);
    return catalog;
  }

  private static TableMetadata buildTable(
      JdbcCatalog catalog, Plan plan, PrintStream out, String store) {
    long start = System.nanoTime();
    catalog.createNamespace(Namespace.of("bench"));
    Table table =
        catalog.createTable(
            TableIdentifier.of("bench", "files"), SCHEMA, PartitionSpec.unpartitioned());
    GenericAppenderFactory appenders = new GenericAppenderFactory(SCHEMA);
    AppendFiles append = table.newFastAppend();
    for (int f = 0; f < plan.files(); f++) {
      String path = table.location() + "/data/" + UUID.randomUUID() + ".parquet";
      FileAppender<Record> appender =
          appenders.newAppender(table.io().newOutputFile(path), FileFormat.PARQUET);
      try (appender) {
        for (int r = 0; r < plan.rowsPerFile(); r++) {
          Record row = GenericRecord.create(SCHEMA);
          row.setField("id", (long) f * plan.rowsPerFile() + r);
          row.setField("name", "row-" + r);
          row.setField("amount", r * 1.5);
          appender.add(row);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      append.appendFile(
          DataFiles.builder(PartitionSpec.unpartitioned())
              .withPath(path)
              .withFormat(FileFormat.PARQUET)
              .withFileSizeInBytes(appender.length())
              .withMetrics(appender.metrics())
              .build());
    }
    append.commit();
    TableMetadata current = ((HasTableOperations) table).operations().current();
    out.printf(
        Locale.ROOT,
        "%s: table of %d Parquet files (%d rows each) written in %d ms%n",
        store,
        plan.files(),
        plan.rowsPerFile(),
        (System.nanoTime() - start) / 1_000_000);
    return TableMetadataParser.fromJson(TableMetadataParser.toJson(current));
  }

  private static List<Measurement> measure(
      String store, TableMetadata metadata, FileIO io, Plan plan, HeapWatch heap, PrintStream out) {
    List<Measurement> measurements = new ArrayList<>();
    for (int i = 0; i <= plan.iterations(); i++) {
      System.gc();
      heap.reset();
      long start = System.nanoTime();
      List<FileProblem> problems = DataFileCheck.check(metadata, io);
      long millis = (System.nanoTime() - start) / 1_000_000;
      HeapWatch.Peak peak = heap.peak();
      if (!problems.isEmpty()) {
        throw new IllegalStateException(store + ": the good table has problems: " + problems);
      }
      String label = i == 0 ? "warm-up" : "iteration " + i;
      out.printf(
          Locale.ROOT,
          "%s %s: %d ms, heap pool peak %d MB, live after GC %d MB (%d collections)%n",
          store,
          label,
          millis,
          peak.poolPeakBytes() >> 20,
          peak.liveAfterGcBytes() >> 20,
          peak.collections());
      if (i > 0) {
        measurements.add(new Measurement(store, i, millis, problems.size(), peak));
      }
    }
    return measurements;
  }

  static long medianMillis(List<Measurement> measurements) {
    List<Long> sorted = measurements.stream().map(Measurement::millis).sorted().toList();
    return sorted.isEmpty() ? 0 : sorted.get(sorted.size() / 2);
  }

  private static int arg(String[] args, int index, int fallback) {
    return args.length > index ? Integer.parseInt(args[index]) : fallback;
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
