package io.icegate.overlay.generated;

import com.apple.foundationdb.Range;
import io.icegate.core.jobs.Schedules;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.Transaction;
import io.icegate.overlay.store.capture.Captures;
import java.io.FileNotFoundException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Collection of the files icegate generated for captured Delta tables (issue 26, "Unreferenced
 * generated files are collected after a grace period"): metadata files, manifest lists,
 * manifests and position delete files under {@code <warehouse>/_icegate/delta/<table id>} that
 * no retained snapshot references any more ({@link CapturedHistory} dropped them, a new capture
 * rewrote them, a publication was refused), and every file of a Table that was deleted.
 *
 * <p>Object stores have no transactional fence, so a reader that loaded an earlier metadata file
 * may still read its manifests after a new capture replaced it. Per Table, in one transaction, a
 * pass reads the capture pointer, records its metadata file as seen now ({@code
 * KeySubspace.GENERATED}) and reads every metadata file seen within the grace period; the files
 * those reference are live ({@link ReferencedFiles}), and so is every file written within the
 * grace period (a capture in flight has not published yet). Anything else under the prefix is
 * deleted. A metadata file that stops being current is thus kept for at least the grace period
 * less the time between two passes. Several gateways may collect one store at once: each
 * decision is read in its own transaction, deletes are idempotent (a file already gone is no
 * error), and the seen-entries only ever move forward.
 */
public final class GeneratedFilesCollector {
  private static final Logger LOG = LoggerFactory.getLogger(GeneratedFilesCollector.class);

  /**
   * What a pass did.
   *
   * @param tables Table prefixes examined
   * @param deleted files deleted
   */
  public record Result(int tables, int deleted) {}

  private final Repositories repositories;
  private final CatalogFiles catalogFiles;
  private final Clock clock;
  private final Duration grace;
  private final Captures captures;

  /**
   * @param grace how long a file stays after it was written or its metadata file was last seen
   *     current (an hour in production: far above a capture's duration and a query's planning)
   */
  public GeneratedFilesCollector(Repositories repositories, CatalogFiles catalogFiles,
      Clock clock, Duration grace) {
    this.repositories = Objects.requireNonNull(repositories, "repositories");
    this.catalogFiles = Objects.requireNonNull(catalogFiles, "catalogFiles");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.grace = Objects.requireNonNull(grace, "grace");
    if (grace.isNegative()) {
      throw new IllegalArgumentException("grace must not be negative");
    }
    this.captures = new Captures(repositories);
  }

  /** One pass over the generated files of every Catalog of every account. */
  public Result collect() {
    int tables = 0;
    int deleted = 0;
    for (String account : Schedules.accountIds(repositories)) {
      for (Resource<Catalog> catalog : catalogsOf(account)) {
        Result one = collect(catalog);
        tables += one.tables();
        deleted += one.deleted();
      }
    }
    return new Result(tables, deleted);
  }

  /**
   * One pass over Catalog {@code catalog}'s generated files; nothing when it has no warehouse or
   * no FileIO here that lists.
   */
  public Result collect(Resource<Catalog> catalog) {
    if (catalog.spec().warehouse() == null) {
      return new Result(0, 0);
    }
    FileIO io;
    try {
      io = catalogFiles.forCatalog(catalog);
    } catch (UnsupportedOperationException e) {
      return new Result(0, 0);
    }
    if (!(io instanceof SupportsPrefixOperations prefixes)) {
      LOG.debug("Catalog {}: its FileIO cannot list; generated files not collected", catalog.id());
      return new Result(0, 0);
    }
    String root = GeneratedFiles.local(GeneratedFiles.location(catalog, ""));
    Map<String, List<FileInfo>> byTable = new LinkedHashMap<>();
    for (FileInfo file : listed(prefixes, root)) {
      String location = GeneratedFiles.local(file.location());
      if (!location.startsWith(root)) {
        continue;
      }
      String rest = location.substring(root.length());
      int slash = rest.indexOf('/');
      if (slash > 0) {
        byTable.computeIfAbsent(rest.substring(0, slash), t -> new ArrayList<>()).add(file);
      }
    }
    int deleted = 0;
    for (Map.Entry<String, List<FileInfo>> table : byTable.entrySet()) {
      try {
        deleted += collectTable(catalog.accountId(), table.getKey(), table.getValue(), io);
      } catch (RuntimeException e) {
        // unsure what is live (a metadata file or manifest unreadable): delete nothing of it
        LOG.warn("generated files of table {} not collected this pass: {}", table.getKey(),
            e.toString());
      }
    }
    return new Result(byTable.size(), deleted);
  }

  /** One Table's prefix: how many files were deleted. */
  private int collectTable(String account, String tableId, List<FileInfo> files, FileIO io) {
    long now = clock.millis();
    long cut = now - grace.toMillis();
    Live live = repositories.store().run(Idempotence.IDEMPOTENT, tx -> decide(tx, account,
        tableId, now, cut));
    Set<String> referenced = new HashSet<>();
    if (live.current() != null) {
      referenced.addAll(ReferencedFiles.of(live.current(), io));
    }
    for (String metadataFile : live.recent()) {
      ReferencedFiles.read(metadataFile, io).ifPresent(m -> referenced.addAll(
          ReferencedFiles.of(m, io)));
    }
    int deleted = 0;
    for (FileInfo file : files) {
      String location = GeneratedFiles.local(file.location());
      if (file.createdAtMillis() < cut && !referenced.contains(location)) {
        io.deleteFile(file.location());
        deleted++;
      }
    }
    return deleted;
  }

  /**
   * What is live under one Table's prefix, as one transaction reads it.
   *
   * @param current the current capture's metadata, or {@code null} (the Table is gone)
   * @param recent the metadata files seen current within the grace period
   */
  private record Live(TableMetadata current, List<String> recent) {}

  /**
   * The decision's reads: the capture pointer (its metadata file marked seen {@code now}) and the
   * metadata files seen since {@code cut}; older entries are cleared.
   */
  private Live decide(Transaction tx, String account, String tableId, long now, long cut) {
    TableMetadata current = null;
    Optional<Captures.Capture> capture = captures.read(tx, account, tableId);
    if (capture.isPresent()) {
      current = TableMetadataParser.fromJson(capture.get().pointer().servedMetadataLocation(),
          new String(capture.get().metadataJson(), StandardCharsets.UTF_8));
      String file = capture.get().pointer().metadataFile();
      if (file != null) {
        tx.set(KeyLayout.generatedSeen(account, tableId, file),
            ByteBuffer.allocate(Long.BYTES).putLong(now).array());
      }
    }
    List<String> recent = new ArrayList<>();
    Range range = KeyLayout.generatedOf(account, tableId).range();
    for (KeyValue kv : tx.getRange(range.begin, range.end)) {
      String file = KeyLayout.generatedOf(account, tableId).unpack(kv.key()).getString(0);
      if (ByteBuffer.wrap(kv.value()).getLong() >= cut) {
        recent.add(GeneratedFiles.local(file));
      } else {
        tx.clear(kv.key());
      }
    }
    return new Live(current, recent);
  }

  /**
   * Every file under {@code root}; none when there is no such directory (Hadoop's FileIO refuses
   * to list a missing one; object stores just list nothing).
   */
  private static List<FileInfo> listed(SupportsPrefixOperations io, String root) {
    List<FileInfo> out = new ArrayList<>();
    try {
      io.listPrefix(root).forEach(out::add);
    } catch (RuntimeException e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof FileNotFoundException) {
          return List.of();
        }
      }
      throw e;
    }
    return out;
  }

  private List<Resource<Catalog>> catalogsOf(String account) {
    Range range = KeyLayout.resources(account, ResourceKind.CATALOG).range();
    return repositories.store().read(tx -> {
      List<Resource<Catalog>> out = new ArrayList<>();
      for (KeyValue kv : tx.snapshot().getRange(range.begin, range.end)) {
        out.add(repositories.catalogs(account).codec().read(kv.value()));
      }
      return out;
    });
  }
}
