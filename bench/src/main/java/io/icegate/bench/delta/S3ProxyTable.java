package io.icegate.bench.delta;

import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.icegate.access.delta.fixture.KernelTableWriter;
import io.icegate.access.delta.iceberg.DeltaHeads;
import io.icegate.access.delta.iceberg.DeltaVersionCapture.Captured;
import io.icegate.access.delta.log.DeltaLog;
import io.icegate.access.delta.log.KernelS3FileSystem;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.access.storage.VendedStorageCredentials;
import io.icegate.access.storage.s3.VendedS3Client;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.CatalogStorage;
import io.icegate.core.model.Resource;
import io.icegate.access.delta.iceberg.ManifestListCache;
import io.icegate.gateway.fileio.CatalogFileIO;
import io.icegate.overlay.generated.GeneratedFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.io.FileIO;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The table on s3proxy (in this JVM, on loopback), read and captured as production does:
 * Kernel's {@link DefaultEngine} over icegate's {@link KernelS3FileSystem} (a listing from a start
 * key, plain and ranged GETs) through an S3 client opened by {@link VendedS3Client} from
 * vended-style keys, the capture through {@link DeltaLog#captureChanges}, generated files written
 * to the Catalog's {@code s3://} warehouse through the FileIO the gateway builds for it ({@link
 * CatalogFileIO}: Iceberg's S3FileIO with the Catalog's static keys) under {@link
 * GeneratedFiles#location}.
 *
 * <p>The fixture keeps its bucket directory to itself, so the table is written on local disk and
 * its log copied with the AWS SDK: whole once, then each later commit's files. The data files are
 * not copied: neither the scan nor a capture without validation reads one (their statistics are
 * in the log), and 10,000 PUTs through s3proxy would take minutes on a loaded machine.
 */
final class S3ProxyTable implements StoredTable {

  private static final String BUCKET = "bench";

  private final Path root;
  private final ObjectStoreFixture objects;
  private final S3Client s3;
  private final KernelTableWriter writer;
  private final Resource<Catalog> catalog;
  private final FileIO generatedIo;
  // the gateway's reconciler keeps one for its lifetime, and each capture goes through it
  private final ManifestListCache manifestLists = new ManifestListCache();
  // the Unity provider keeps one for the process
  private final DeltaHeads heads = new DeltaHeads();

  S3ProxyTable() throws Exception {
    ObjectStoreFixture.useChecksumsOnlyWhenRequired(); // for the S3FileIO, built from properties
    root = Files.createTempDirectory("icegate-delta-bench");
    objects = ObjectStoreFixture.startS3Proxy();
    objects.createBucket(BUCKET);
    // one client for the run (production opens one per capture: not counted here)
    s3 =
        VendedS3Client.open(
            new VendedStorageCredentials(
                location(), objects.s3FileIoProperties(), Instant.now().plusSeconds(3600)),
            objects.s3Settings(),
            OutboundAddressPolicy.defaults());
    writer = new KernelTableWriter(root.resolve("lake"), s3, BUCKET);
    Instant now = Instant.now();
    catalog =
        new Resource<>(
            "bench-catalog",
            "bench",
            1,
            1,
            now,
            now,
            new Catalog(
                "bench",
                "s3://" + BUCKET + "/warehouse",
                Map.of(),
                new CatalogStorage(
                    new CatalogStorage.S3(
                        objects.endpoint().toString(),
                        ObjectStoreFixture.REGION,
                        true,
                        objects.accessKeyId(),
                        1))));
    String secret = objects.secretAccessKey();
    generatedIo =
        new CatalogFileIO((id, generation) -> Optional.of(secret)).forCatalog(catalog);
  }

  @Override
  public KernelTableWriter writer() {
    return writer;
  }

  @Override
  public int publishTable() {
    return writer.upload(DeltaCaptureBench.TABLE, name -> true).size();
  }

  @Override
  public void publishCommit(long version) {
    // the commit and Kernel's checksum file of it, if it wrote one
    String prefix = String.format(Locale.ROOT, "%020d.", version);
    if (writer.upload(DeltaCaptureBench.TABLE, name -> name.startsWith(prefix)).isEmpty()) {
      throw new IllegalStateException("no log file of version " + version + " to copy");
    }
  }

  @Override
  public Engine scanEngine() {
    return DefaultEngine.create(new KernelS3FileSystem(s3));
  }

  @Override
  public String location() {
    return "s3://" + BUCKET + "/" + DeltaCaptureBench.TABLE;
  }

  /** The production entry point: {@link DeltaLog} loads the version itself. */
  @Override
  public Captured capture(Captured previous, int iteration) {
    return new DeltaLog(s3, location())
        .captureChanges(
            Optional.empty(),
            previous == null ? null : previous.metadata(),
            Optional.ofNullable(previous).map(Captured::deltaState),
            "bench/t",
            GeneratedFiles.location(catalog, "t-" + iteration),
            manifestLists.around(generatedIo));
  }

  @Override
  public boolean readHead(boolean remembered) {
    DeltaLog log = new DeltaLog(s3, location());
    if (remembered) {
      log.head(heads);
    } else {
      log.head();
    }
    return true;
  }

  @Override
  public void close() throws Exception {
    try (objects;
        s3;
        generatedIo) {
      DeltaCaptureBench.deleteRecursively(root);
    }
  }
}
