package io.icegate.bench.overlay;

import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.jdbc.JdbcCatalog;

/**
 * The upstream of {@link ReconcileComparison}: the iceberg-rest test-jar fixture (Iceberg's own
 * REST servlet over a {@code JdbcCatalog} on in-memory H2, warehouse on s3proxy, all in this JVM on
 * loopback) holding {@code namespaces} top-level namespaces {@code ns000, ns001, ...} of {@code
 * tablesPerNamespace} tables {@code t000, t001, ...} each.
 *
 * <p>Tables are created on the fixture's backing {@code JdbcCatalog} directly, not over HTTP (the
 * REST round trip adds nothing to what is measured and only slows the setup): each is a real
 * table with its own UUID and a {@code metadata.json} written to the object store, so every
 * upstream load reads a metadata file, as a REST catalog in production does.
 */
final class SyntheticUpstream implements AutoCloseable {
  /** Threads creating tables; JdbcCatalog and S3FileIO are safe for concurrent use. */
  private static final int POPULATE_THREADS = 8;

  private final ObjectStoreFixture objects;
  private final IcebergRestFixture fixture;

  private SyntheticUpstream(ObjectStoreFixture objects, IcebergRestFixture fixture) {
    this.objects = objects;
    this.fixture = fixture;
  }

  /**
   * Starts s3proxy and the REST catalog and creates the namespaces and tables.
   *
   * @throws Exception when a fixture fails to start or a table cannot be created
   */
  static SyntheticUpstream start(int namespaces, int tablesPerNamespace) throws Exception {
    ObjectStoreFixture objects = ObjectStoreFixture.startS3Proxy();
    IcebergRestFixture fixture;
    try {
      fixture = IcebergRestFixture.start(objects);
    } catch (Exception e) {
      objects.close();
      throw e;
    }
    SyntheticUpstream upstream = new SyntheticUpstream(objects, fixture);
    try {
      upstream.populate(namespaces, tablesPerNamespace);
    } catch (Exception e) {
      upstream.close();
      throw e;
    }
    return upstream;
  }

  private void populate(int namespaces, int tablesPerNamespace) throws Exception {
    JdbcCatalog catalog = fixture.backingCatalog();
    ExecutorService pool = Executors.newFixedThreadPool(POPULATE_THREADS);
    try {
      List<Future<?>> created = new ArrayList<>();
      for (int n = 0; n < namespaces; n++) {
        Namespace namespace = Namespace.of(String.format("ns%03d", n));
        catalog.createNamespace(namespace, Map.of("owner", "bench"));
        for (int t = 0; t < tablesPerNamespace; t++) {
          TableIdentifier id = TableIdentifier.of(namespace, String.format("t%03d", t));
          created.add(pool.submit(() -> catalog.buildTable(id, IcebergRestFixture.ORDERS_SCHEMA)
              .withProperty("comment", "bench table " + id)
              .create()));
        }
      }
      for (Future<?> f : created) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** The catalog URI an Integration names. */
  URI uri() {
    return fixture.uri();
  }

  /**
   * Forgets the requests the fixture's request-log filter recorded. It appends every request to a
   * copy-on-write list, whose cost grows with its length: cleared before each measured phase so
   * every phase starts with the same upstream cost.
   */
  void clearRequestLog() {
    fixture.requests().clear();
  }

  /**
   * Catalog reads the fixture received since the log was last cleared: {@code GET} requests on
   * namespaces, objects, tables and views (not the client's config or token requests).
   */
  long catalogReads() {
    return fixture.requests().requests().stream()
        .filter(line -> line.startsWith("GET ") && line.contains("/namespaces")).count();
  }

  @Override
  public void close() throws Exception {
    try {
      fixture.close();
    } finally {
      objects.close();
    }
  }
}
