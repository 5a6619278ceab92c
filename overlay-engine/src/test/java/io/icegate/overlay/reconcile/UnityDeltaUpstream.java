package io.icegate.overlay.reconcile;

import io.delta.kernel.expressions.Literal;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.icegate.access.delta.fixture.KernelTableWriter;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.access.unity.fixture.UnityCatalogFixture;
import io.icegate.core.model.Catalog;
import io.icegate.overlay.store.capture.Captures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The Unity upstream of the Delta reconcile tests, for one test class: an object store (s3proxy)
 * with the bucket {@code lake} that holds the Delta tables, and the Unity Catalog fixture, which
 * vends that store's keys; started before the class's tests (and its {@code @BeforeAll}, which
 * may start more fixtures on {@link #objects()}) and stopped after them. Register it with
 * {@code @RegisterExtension static final UnityDeltaUpstream upstream = new
 * UnityDeltaUpstream();}.
 * Public for the tests of other packages (validation) that need the same lake and Unity.
 *
 * <p>The tables are {@link #ORDERS}-shaped ({@code id}, {@code region}, partitioned by region),
 * written by Delta Kernel under a test's scratch directory and uploaded to the lake; Unity serves
 * each as {@code main.<namespace>.<name>}. The Catalogs the tests reconcile into keep their
 * generated files in a local {@code file:} warehouse.
 */
public final class UnityDeltaUpstream implements BeforeAllCallback, AfterAllCallback {
  /** The bucket of the Delta tables. */
  public static final String LAKE = "lake";
  static final StructType ORDERS =
      new StructType().add("id", LongType.LONG, false).add("region", StringType.STRING, true);

  private ObjectStoreFixture objects;
  private UnityCatalogFixture unity;
  private S3Client s3;

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    ObjectStoreFixture.useChecksumsOnlyWhenRequired();
    objects = ObjectStoreFixture.startS3Proxy();
    objects.createBucket(LAKE);
    s3 = objects.newClient();
    unity = UnityCatalogFixture.start(objects.accessKeyId(), objects.secretAccessKey());
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    unity.close();
    s3.close();
    objects.close();
  }

  /** The lake's object store (its reads are counted). */
  public ObjectStoreFixture objects() {
    return objects;
  }

  public UnityCatalogFixture unity() {
    return unity;
  }

  /** A client of the lake's store, with its keys. */
  public S3Client s3() {
    return s3;
  }

  /** Deletes every object of the lake under {@code prefix}: the table's directory removed. */
  void deleteTable(String prefix) {
    for (S3Object object : s3.listObjectsV2Paginator(b -> b.bucket(LAKE).prefix(prefix))
        .contents()) {
      s3.deleteObject(b -> b.bucket(LAKE).key(object.key()));
    }
  }

  /** A Kernel writer of tables in the lake, each written under {@code scratch} first. */
  KernelTableWriter writer(Path scratch) {
    return new KernelTableWriter(scratch, s3, LAKE);
  }

  /**
   * Creates the {@link #ORDERS}-shaped table at {@code path} ({@code namespace/name}) under
   * {@code scratch}, with no rows and nothing uploaded; its writer.
   */
  KernelTableWriter createOrders(Path scratch, String path) {
    KernelTableWriter delta = writer(scratch);
    delta.create(path, ORDERS, List.of("region"), Map.of());
    return delta;
  }

  /** Appends one file of rows {@code ids} in {@code region} to the table at {@code path}. */
  static long append(KernelTableWriter delta, String path, String region, long... ids) {
    List<Object[]> rows = new ArrayList<>();
    for (long id : ids) {
      rows.add(new Object[] {id, region});
    }
    return delta.append(path, Map.of("region", Literal.ofString(region)), rows);
  }

  /** As {@link #append}, then the table goes to the lake; the new version. */
  static long appendAndUpload(KernelTableWriter delta, String path, String region,
      long... ids) {
    long version = append(delta, path, region, ids);
    delta.uploadTable(path);
    return version;
  }

  /**
   * Creates {@code namespace/orders} with one file (row 1, region {@code EU}), uploads it and has
   * Unity serve it as {@code main.namespace.orders}; its writer, for later commits.
   */
  KernelTableWriter createAndServeOrders(Path scratch, String namespace) {
    String path = namespace + "/orders";
    KernelTableWriter delta = createOrders(scratch, path);
    appendAndUpload(delta, path, "EU", 1L);
    serveOrders(namespace, "orders");
    return delta;
  }

  /** Unity serves the lake's {@code namespace/name} as {@code main.namespace.name}. */
  void serveOrders(String namespace, String name) {
    Map<String, String> columns = new LinkedHashMap<>();
    columns.put("id", "long");
    columns.put("region", "string");
    unity.addTable("main", namespace, name, "EXTERNAL", "DELTA", location(namespace + "/" + name),
        columns);
  }

  /** {@code s3://lake/path}. */
  static String location(String path) {
    return "s3://" + LAKE + "/" + path;
  }

  /** A Catalog {@code analytics} whose warehouse is the local directory {@code warehouse}. */
  static String catalog(ReconcileHarness h, Path warehouse) {
    return h.repos.catalogs(h.account)
        .create(new Catalog("analytics", "file:" + warehouse.toAbsolutePath(), Map.of())).id();
  }

  /**
   * An Overlay {@code name} of Unity namespace {@code namespace} (catalog {@code main}, through a
   * new Unity Integration) into {@code catalogId}; its id.
   */
  String overlay(ReconcileHarness h, String name, String catalogId, String namespace) {
    return h.overlay(name, h.unityIntegration("unity", unity, objects, "main"), catalogId,
        List.of(List.of(namespace)));
  }

  /** The Iceberg metadata a capture holds. */
  static TableMetadata metadata(Captures.Capture capture) {
    return TableMetadataParser.fromJson(capture.pointer().upstreamMetadataLocation(),
        new String(capture.metadataJson(), StandardCharsets.UTF_8));
  }

  /** Each live data file of {@code snapshot} as its directory and record count. */
  static List<String> dataFiles(TableMetadata metadata, Snapshot snapshot) {
    HadoopFileIO io = new HadoopFileIO(new Configuration());
    List<String> files = new ArrayList<>();
    for (var manifest : snapshot.dataManifests(io)) {
      try (var reader = ManifestFiles.read(manifest, io, metadata.specsById())) {
        for (DataFile f : reader) {
          String path = f.location();
          files.add(path.substring(0, path.lastIndexOf('/')) + "=" + f.recordCount());
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return files;
  }
}
