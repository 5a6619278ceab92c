package io.icegate.overlay.generated;

import com.apple.foundationdb.Range;
import io.icegate.core.jobs.Schedules;
import io.icegate.core.credential.CredentialStore;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.Transaction;
import io.icegate.overlay.store.capture.CaptureLeases;
import io.icegate.overlay.store.capture.Captures;
import io.icegate.overlay.store.capture.DeletedCaptures;
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
 * grace period (a capture in flight has not published yet), and every file of the prefix while a
 * capture's write lease on it was renewed within the grace ({@link CaptureLeases}: a capture
 * running longer than the grace; an older lease is cleared, and its capture is then not
 * published). Anything else under the prefix is deleted. A metadata file that stops being
 * current is thus kept for at least the grace period less the time between two passes. Several
 * gateways may collect one store at once: each decision is read in its own transaction, deletes
 * are idempotent (a file already gone is no error), and the seen-entries only ever move forward.
 *
 * <p>A deleted Table (retired, its Overlay deleted, out of scope, its Catalog or account deleted
 * afterwards) leaves an entry naming its Catalog and last metadata file ({@link
 * DeletedCaptures}, written in the deleting transaction, also when only a capture's write lease
 * named the table: a first capture in flight has no pointer yet), and a deleted Catalog whose
 * tables have such entries keeps its record and storage secret ({@code
 * CatalogService#delete}): so the prefix can still be found and reached when the Catalog is gone.
 * The same fence covers it: the first pass that sees the Table deleted marks its last metadata
 * file as seen then, and nothing under its prefix goes until that is older than the grace; after
 * that every file older than the grace goes, and once nothing is left the entry goes (the
 * Catalog's record and secret with its last entry).
 */
public final class GeneratedFilesCollector {
  private static final Logger LOG = LoggerFactory.getLogger(GeneratedFilesCollector.class);

  /**
   * What a pass did.
   *
   * @param tables Table prefixes examined
   * @param deleted files deleted
   */
  public record Result(int tables, int deleted) {
    Result plus(Result other) {
      return new Result(tables + other.tables, deleted + other.deleted);
    }
  }

  private final Repositories repositories;
  private final CatalogFiles catalogFiles;
  private final Clock clock;
  private final Duration grace;
  private final Captures captures;
  private final DeletedCaptures deletedCaptures = new DeletedCaptures();
  private final CaptureLeases leases = new CaptureLeases();
  private final CredentialStore credentials;

  /**
   * @param credentials where a deleted Catalog's storage secret is removed once its tables'
   *     generated files are collected
   * @param grace how long a file stays after it was written or its metadata file was last seen
   *     current (an hour in production: far above a capture's duration and a query's planning)
   */
  public GeneratedFilesCollector(Repositories repositories, CredentialStore credentials,
      CatalogFiles catalogFiles, Clock clock, Duration grace) {
    this.repositories = Objects.requireNonNull(repositories, "repositories");
    this.credentials = Objects.requireNonNull(credentials, "credentials");
    this.catalogFiles = Objects.requireNonNull(catalogFiles, "catalogFiles");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.grace = Objects.requireNonNull(grace, "grace");
    if (grace.isNegative()) {
      throw new IllegalArgumentException("grace must not be negative");
    }
    this.captures = new Captures(repositories);
  }

  /**
   * One pass over the generated files of every Catalog of every account, then over those of
   * deleted Tables and Catalogs ({@link #collectDeleted()}).
   */
  public Result collect() {
    Result all = new Result(0, 0);
    for (String account : Schedules.accountIds(repositories)) {
      for (Resource<Catalog> catalog : catalogsOf(account)) {
        all = all.plus(collect(catalog));
      }
    }
    return all.plus(collectDeleted());
  }

  /**
   * One pass over the prefixes of deleted Tables ({@link DeletedCaptures}), whether their
   * Catalog lives or was deleted after them: files go once the Table was seen deleted longer
   * than the grace, and entries (and a deleted Catalog's record and secret) once nothing is left.
   */
  public Result collectDeleted() {
    Result all = new Result(0, 0);
    for (DeletedCaptures.CatalogRef ref : repositories.store().read(deletedCaptures::catalogs)) {
      try {
        all = all.plus(collectDeleted(ref));
      } catch (RuntimeException e) {
        LOG.warn("generated files of deleted tables of catalog {} not collected this pass: {}",
            ref.catalogId(), e.toString());
      }
    }
    return all;
  }

  private Result collectDeleted(DeletedCaptures.CatalogRef ref) {
    String account = ref.accountId();
    record Pending(Resource<Catalog> catalog, List<DeletedCaptures.DeletedCapture> tables) {}
    Pending pending = repositories.store().read(tx -> {
      Optional<Resource<Catalog>> live = repositories.catalogs(account).get(tx, ref.catalogId());
      Optional<byte[]> kept = deletedCaptures.deletedCatalog(tx, account, ref.catalogId());
      return new Pending(live.orElseGet(() -> kept.map(bytes -> repositories.catalogs(account)
          .codec().read(bytes)).orElse(null)), deletedCaptures.of(tx, account, ref.catalogId()));
    });
    if (pending.catalog() == null || pending.catalog().spec().warehouse() == null) {
      if (pending.catalog() == null) {
        // deleted before its record was kept: nothing here can reach its warehouse any more
        LOG.warn("catalog {} is gone with no record of its storage: the generated files of {} "
            + "deleted table(s) stay under its warehouse", ref.catalogId(),
            pending.tables().size());
      }
      repositories.store().run(Idempotence.IDEMPOTENT, tx -> {
        pending.tables().forEach(entry -> deletedCaptures.clear(tx, entry));
        return null;
      });
      releaseCatalog(account, ref.catalogId());
      return new Result(0, 0);
    }
    Optional<SupportsPrefixOperations> io = listingIo(pending.catalog());
    if (io.isEmpty()) {
      return new Result(0, 0);
    }
    int deleted = 0;
    for (DeletedCaptures.DeletedCapture table : pending.tables()) {
      String prefix = GeneratedFiles.location(pending.catalog(), table.tableId()) + "/";
      List<FileInfo> files = listed(io.get(), prefix);
      int gone = collectTable(account, ref.catalogId(), table.tableId(), files, (FileIO) io.get());
      deleted += gone;
      if (gone == files.size()) {
        finish(table);
      }
    }
    // also when the Catalog was live at the read above: a deletion since kept record and secret
    releaseCatalog(account, ref.catalogId());
    return new Result(pending.tables().size(), deleted);
  }

  /**
   * Clears {@code table}'s entry and its seen-entries once nothing is left under its prefix and
   * it was seen deleted longer than the grace ago (a capture in flight at its deletion has ended
   * by then), re-read in the transaction that clears.
   */
  private void finish(DeletedCaptures.DeletedCapture table) {
    long cut = clock.millis() - grace.toMillis();
    repositories.store().run(Idempotence.IDEMPOTENT, tx -> {
      Optional<DeletedCaptures.DeletedCapture> now = deletedCaptures.get(tx, table.accountId(),
          table.catalogId(), table.tableId());
      if (now.isPresent() && now.get().seen() && now.get().goneSeenMillis() < cut
          && captures.read(tx, table.accountId(), table.tableId()).isEmpty()) {
        deletedCaptures.clear(tx, now.get());
        Range seen = KeyLayout.generatedOf(table.accountId(), table.tableId()).range();
        tx.clearRange(seen.begin, seen.end);
      }
      return null;
    });
  }

  /** A deleted Catalog's record and storage secret go with its last pending table. */
  private void releaseCatalog(String account, String catalogId) {
    repositories.store().run(Idempotence.IDEMPOTENT, tx -> {
      if (deletedCaptures.of(tx, account, catalogId).isEmpty()
          && deletedCaptures.deletedCatalog(tx, account, catalogId).isPresent()) {
        credentials.removeAll(tx, account, catalogId);
        deletedCaptures.clearDeletedCatalog(tx, account, catalogId);
      }
      return null;
    });
  }

  /**
   * One pass over Catalog {@code catalog}'s generated files; nothing when it has no warehouse or
   * no FileIO here that lists.
   */
  public Result collect(Resource<Catalog> catalog) {
    Optional<SupportsPrefixOperations> listing = listingIo(catalog);
    if (listing.isEmpty()) {
      return new Result(0, 0);
    }
    SupportsPrefixOperations prefixes = listing.get();
    FileIO io = (FileIO) prefixes;
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
        deleted += collectTable(catalog.accountId(), catalog.id(), table.getKey(),
            table.getValue(), io);
      } catch (RuntimeException e) {
        // unsure what is live (a metadata file or manifest unreadable): delete nothing of it
        LOG.warn("generated files of table {} not collected this pass: {}", table.getKey(),
            e.toString());
      }
    }
    return new Result(byTable.size(), deleted);
  }

  /**
   * The FileIO of {@code catalog}'s warehouse when it has one here that lists; empty otherwise
   * (nothing of it is collected).
   */
  private Optional<SupportsPrefixOperations> listingIo(Resource<Catalog> catalog) {
    if (catalog.spec().warehouse() == null) {
      return Optional.empty();
    }
    FileIO io;
    try {
      io = catalogFiles.forCatalog(catalog);
    } catch (UnsupportedOperationException e) {
      return Optional.empty();
    }
    if (!(io instanceof SupportsPrefixOperations prefixes)) {
      LOG.debug("Catalog {}: its FileIO cannot list; generated files not collected", catalog.id());
      return Optional.empty();
    }
    return Optional.of(prefixes);
  }

  /** One Table's prefix: how many files were deleted. */
  private int collectTable(String account, String catalogId, String tableId,
      List<FileInfo> files, FileIO io) {
    long now = clock.millis();
    long cut = now - grace.toMillis();
    Live live = repositories.store().run(Idempotence.IDEMPOTENT, tx -> decide(tx, account,
        catalogId, tableId, now, cut));
    if (live.everything()) {
      return 0;
    }
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
   * @param everything whether every file under the prefix is live (a Table seen deleted within
   *     the grace period, or a capture holding its write lease renewed within it)
   */
  private record Live(TableMetadata current, List<String> recent, boolean everything) {}

  /**
   * The decision's reads: the capture pointer (its metadata file marked seen {@code now}) and the
   * metadata files seen since {@code cut}; older entries are cleared. A deleted Table's entry
   * ({@link DeletedCaptures}) is marked seen deleted {@code now} at its first pass, and keeps
   * the whole prefix live until that is older than {@code cut}: its last metadata file was
   * current until the deletion, which no seen-entry recorded. A capture's write lease ({@link
   * CaptureLeases}) renewed since {@code cut} keeps a live Table's whole prefix (the capture may
   * publish any file it wrote); an older one is cleared.
   */
  private Live decide(Transaction tx, String account, String catalogId, String tableId, long now,
      long cut) {
    TableMetadata current = null;
    Optional<Captures.Capture> capture = captures.read(tx, account, tableId);
    Optional<DeletedCaptures.DeletedCapture> gone =
        deletedCaptures.get(tx, account, catalogId, tableId);
    Optional<CaptureLeases.Lease> lease = leases.get(tx, account, catalogId, tableId);
    if (capture.isPresent()) {
      // captured again under the same id: live, and no longer a deleted table's prefix
      gone.ifPresent(entry -> deletedCaptures.clear(tx, entry));
    } else if (gone.isPresent()) {
      DeletedCaptures.DeletedCapture entry = gone.get().seen() ? gone.get()
          : deletedCaptures.markSeen(tx, gone.get(), now);
      if (entry.goneSeenMillis() >= cut) {
        return new Live(null, List.of(), true);
      }
    } else if (repositories.tables(account).get(tx, tableId)
        .filter(table -> table.spec().catalogId().equals(catalogId)).isEmpty()) {
      if (lease.isPresent()) {
        // a capture's lease names this Catalog, yet no deletion turned it into an entry (a
        // path that forgot to): it attributes the prefix all the same, collected as deleted
        deletedCaptures.record(tx, account, catalogId, tableId, "");
        leases.clear(tx, account, catalogId, tableId);
      }
      // else not a table of this Catalog as far as the store knows: another Catalog's or
      // account's sharing the warehouse, or deleted before deletions were recorded; never guess
      return new Live(null, List.of(), true);
    }
    // a capture holding the lease may still publish any file under the prefix, however old
    boolean inFlight = lease.isPresent() && lease.get().renewedMillis() >= cut;
    if (lease.isPresent() && !inFlight) {
      leases.clear(tx, account, catalogId, tableId); // its capture ended without publishing
    }
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
    return new Live(current, recent, inFlight);
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
