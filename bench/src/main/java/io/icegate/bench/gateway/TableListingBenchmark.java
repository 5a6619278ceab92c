package io.icegate.bench.gateway;

import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.Resource;
import io.icegate.core.model.Table;
import io.icegate.core.paging.Page;
import io.icegate.core.paging.PageRequest;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.KvStore;
import io.icegate.gateway.catalog.MetadataCache;
import io.icegate.gateway.catalog.RepositoryCatalog;
import io.icegate.gateway.fileio.LocalFileIO;
import io.icegate.overlay.store.OverlayStore;
import io.icegate.storage.sqlite.SqliteKvStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.CatalogHandlers;
import org.apache.iceberg.rest.responses.ListTablesResponse;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The first page of 100 tables of a namespace holding {@code tables} tables, on SQLite: through
 * the gateway's paged listing (a range read of the name index: should not grow with the
 * namespace) and, for contrast, through iceberg-core's {@code CatalogHandlers.listTables}, which
 * lists every table and slices in memory (DESIGN.md "Scale of listings").
 *
 * <pre>java -jar bench/target/icegate-bench.jar TableListingBenchmark</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class TableListingBenchmark {
  private static final int BATCH = 2_000;

  @Param({"1000", "100000"})
  public int tables;

  private Path dir;
  private KvStore store;
  private RepositoryCatalog catalog;
  private final Namespace namespace = Namespace.of("bench");

  @Setup(Level.Trial)
  public void fill() throws IOException {
    dir = Files.createTempDirectory("icegate-listing");
    store = SqliteKvStore.open(dir.resolve("store.db"));
    Repositories repos = OverlayStore.repositories(store, Clock.systemUTC());
    Resource<Catalog> cat = store.run(tx -> {
      Resource<Account> account = repos.accounts().create(tx, new Account("bench"));
      Resource<Catalog> c = repos.catalogs(account.id())
          .create(tx, new Catalog("bench", "file:" + dir.resolve("wh"), Map.of()));
      repos.namespaces(account.id()).create(tx,
          new io.icegate.core.model.Namespace(c.id(), List.of("bench"), Map.of()));
      return c;
    });
    for (int from = 0; from < tables; from += BATCH) {
      int start = from;
      int end = Math.min(tables, from + BATCH);
      store.run(tx -> {
        for (int i = start; i < end; i++) {
          repos.tables(cat.accountId()).create(tx, new Table(cat.id(), List.of("bench"),
              String.format("t%07d", i), "file:/nowhere/t" + i + "/metadata.json", Map.of()));
        }
        return null;
      });
    }
    LocalFileIO io = new LocalFileIO();
    io.initialize(Map.of());
    catalog = new RepositoryCatalog(repos, cat, io, new MetadataCache(10));
  }

  @TearDown(Level.Trial)
  public void close() throws IOException {
    store.close();
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Benchmark
  public Page<TableIdentifier> pagedListing() {
    return catalog.listTables(namespace, PageRequest.first(100));
  }

  @Benchmark
  public ListTablesResponse catalogHandlersSlicing() {
    return CatalogHandlers.listTables(catalog, namespace, "", "100");
  }
}
