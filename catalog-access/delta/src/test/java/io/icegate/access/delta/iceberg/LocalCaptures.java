package io.icegate.access.delta.iceberg;

import io.delta.kernel.expressions.Literal;
import io.icegate.access.delta.fixture.KernelTableWriter;
import io.icegate.access.delta.iceberg.DeltaVersionCapture.Captured;
import io.icegate.access.delta.iceberg.DeltaVersionCapture.Target;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.FileIO;

/**
 * The capture tests' world on local disk: a lake of Delta tables written by Kernel's own writer,
 * a warehouse for the generated files, Iceberg's Hadoop FileIO for both, and captures of the
 * lake's tables into the warehouse.
 */
final class LocalCaptures {

  private final KernelTableWriter delta;
  private final Path warehouse;
  private final FileIO io = new HadoopFileIO(new Configuration());

  LocalCaptures(Path lake, Path warehouse) {
    this.delta = new KernelTableWriter(lake, null, null);
    this.warehouse = warehouse;
  }

  KernelTableWriter delta() {
    return delta;
  }

  FileIO io() {
    return io;
  }

  /** Generated files under {@code <warehouse>/<generated>}, written and read with {@code io}. */
  Target target(String table, String generated, FileIO generatedIo) {
    return new Target(
        "account/catalog/" + table,
        warehouse.resolve(generated).toUri().toString().replaceAll("/$", ""),
        generatedIo,
        io);
  }

  Target target(String table, String generated) {
    return target(table, generated, io);
  }

  /** The latest version of {@code table} captured from {@code previous} (null: a first capture). */
  Captured capture(String table, TableMetadata previous, String generated, FileIO generatedIo) {
    return DeltaVersionCapture.captureChanges(
        delta.engine(), delta.snapshot(table), previous, target(table, generated, generatedIo));
  }

  Captured capture(String table, TableMetadata previous, String generated) {
    return capture(table, previous, generated, io);
  }

  /** One commit of one file with the row {@code id} in {@code region}; returns its version. */
  long append(String table, String region, long id) {
    return delta.append(
        table,
        Map.of("region", Literal.ofString(region)),
        List.<Object[]>of(new Object[] {id, "n" + id, DeltaVersionCaptureTest.TS + id, region}));
  }
}
