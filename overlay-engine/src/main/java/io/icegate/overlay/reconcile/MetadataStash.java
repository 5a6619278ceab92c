package io.icegate.overlay.reconcile;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.icegate.access.model.LoadedTable;
import io.icegate.access.model.UpstreamTableMetadata;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.repo.Repositories;
import io.icegate.overlay.store.capture.CapturePointer;
import io.icegate.overlay.store.capture.CapturePointers;
import io.icegate.overlay.store.relation.ManagedRelations;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Full Iceberg metadata kept from a run's discovery for the same run's capture phase, so a table
 * that discovery loaded and capture will publish is loaded from upstream once (issue 8, bench:
 * the initial run against bare discovery).
 *
 * <p>Only what capture will need is kept: Iceberg tables whose upstream metadata location differs
 * from the one their capture pointer named when the run started (every table of a first run; none
 * of an unchanged re-run, which renders no metadata JSON at all). Memory is bounded by {@code
 * budgetBytes} of JSON: a table past the budget is not kept and capture loads it again, so the
 * stash only ever saves upstream calls, it never decides what is captured. Thread-safe.
 */
final class MetadataStash {
  /** JSON bytes kept per run by default: a few thousand typical tables, far below a 512 MB heap. */
  static final long DEFAULT_BUDGET_BYTES = 64L << 20;

  /** A stash that keeps nothing (a capture on request loads every Table it captures). */
  static final MetadataStash EMPTY = new MetadataStash(Map.of(), 0);

  /** Index entries read per transaction when reading the starting captures. */
  private static final int PAGE = 1000;

  private static final String ICEBERG = "ICEBERG";
  private static final ManagedRelations MANAGED = new ManagedRelations();
  private static final CapturePointers POINTERS = new CapturePointers();

  private record Kept(String location, byte[] json, boolean snapshotless) {}

  /**
   * Metadata kept for one table.
   *
   * @param json the Iceberg table metadata JSON
   * @param snapshotless whether it has no current snapshot (no file to validate)
   */
  record Stashed(byte[] json, boolean snapshotless) {}

  private static final JsonFactory JSON = new JsonFactory();

  private final Map<String, String> capturedAtStart;
  private final long budgetBytes;
  private final Map<String, Kept> kept = new ConcurrentHashMap<>();
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicLong overBudget = new AtomicLong();

  /**
   * @param capturedAtStart external id of a managed Table -> the upstream metadata location its
   *     capture pointer named when the run started
   * @param budgetBytes JSON bytes kept at most
   */
  MetadataStash(Map<String, String> capturedAtStart, long budgetBytes) {
    this.capturedAtStart = Map.copyOf(capturedAtStart);
    this.budgetBytes = budgetBytes;
  }

  /**
   * A stash for a run of {@code overlayId}, reading the capture pointers of its managed Tables
   * (read only; in pages of {@value #PAGE} so no read transaction grows unbounded).
   */
  static MetadataStash forRun(Repositories repositories, String accountId, String overlayId,
      long budgetBytes) {
    Map<String, String> captured = new HashMap<>();
    ManagedRelations.Entry after = null;
    while (true) {
      ManagedRelations.Entry from = after;
      List<ManagedRelations.Entry> page = repositories.store().read(tx -> {
        List<ManagedRelations.Entry> found =
            MANAGED.managedBy(tx, accountId, overlayId, from, PAGE);
        for (ManagedRelations.Entry entry : found) {
          if (entry.kind() == ResourceKind.TABLE) {
            POINTERS.get(tx, accountId, entry.relationId()).map(
                CapturePointer::upstreamMetadataLocation).ifPresent(
                    location -> captured.put(entry.externalId(), location));
          }
        }
        return found;
      });
      if (page.size() < PAGE) {
        return new MetadataStash(captured, budgetBytes);
      }
      after = page.get(page.size() - 1);
    }
  }

  /**
   * Keeps the full metadata of {@code loaded} (of which {@code relation} is the desired form) when
   * capture will need it and the budget allows. Never fails: metadata that cannot be rendered is
   * simply not kept, and capture loads it again and reports what goes wrong then.
   */
  void offer(DesiredRelation relation, LoadedTable loaded) {
    String location = relation.upstreamMetadataLocation();
    if (relation.kind() != ResourceKind.TABLE || !ICEBERG.equals(relation.tableFormat())
        || location == null || location.equals(capturedAtStart.get(relation.externalId()))
        || loaded.fullMetadata() == null || bytes.get() >= budgetBytes) {
      return;
    }
    Optional<UpstreamTableMetadata> metadata;
    try {
      metadata = loaded.metadata();
    } catch (RuntimeException e) {
      return;
    }
    if (metadata.isEmpty() || !metadata.get().metadataLocation().equals(location)) {
      return;
    }
    byte[] json = metadata.get().metadataJson().getBytes(StandardCharsets.UTF_8);
    if (bytes.addAndGet(json.length) > budgetBytes) {
      bytes.addAndGet(-json.length);
      overBudget.incrementAndGet();
      return;
    }
    boolean snapshotless;
    try {
      snapshotless = snapshotless(json);
    } catch (IOException e) {
      bytes.addAndGet(-json.length);
      return;
    }
    Kept previous = kept.put(key(relation.namespace(), relation.name()),
        new Kept(location, json, snapshotless));
    if (previous != null) {
      bytes.addAndGet(-previous.json().length);
    }
  }

  /**
   * The kept metadata JSON of the upstream table at {@code namespace}.{@code name} read from
   * {@code location}, handed over once (the stash forgets it); empty when not kept or kept for
   * another location.
   */
  Optional<byte[]> take(List<String> namespace, String name, String location) {
    if (location == null) {
      return Optional.empty();
    }
    Kept found = kept.remove(key(namespace, name));
    if (found == null) {
      return Optional.empty();
    }
    bytes.addAndGet(-found.json().length);
    return found.location().equals(location) ? Optional.of(found.json()) : Optional.empty();
  }

  /**
   * The kept metadata of {@code namespace}.{@code name} when it was read from {@code location},
   * left in the stash (a publication transaction may run again; {@link #forget} once it
   * committed).
   */
  Optional<Stashed> peek(List<String> namespace, String name, String location) {
    Kept found = location == null ? null : kept.get(key(namespace, name));
    return found == null || !found.location().equals(location) ? Optional.empty()
        : Optional.of(new Stashed(found.json(), found.snapshotless()));
  }

  /** Drops what is kept for {@code namespace}.{@code name}, if anything. */
  void forget(List<String> namespace, String name) {
    Kept found = kept.remove(key(namespace, name));
    if (found != null) {
      bytes.addAndGet(-found.json().length);
    }
  }

  /**
   * Whether Iceberg table metadata JSON has no current snapshot: its top-level {@code
   * current-snapshot-id} is absent, null or -1 (Iceberg's "no snapshot"; {@code
   * TableMetadataParser} writes -1).
   *
   * @throws IOException when the text is not a JSON object
   */
  static boolean snapshotless(byte[] json) throws IOException {
    try (JsonParser parser = JSON.createParser(json)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("table metadata is not a JSON object");
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        JsonToken value = parser.nextToken();
        if ("current-snapshot-id".equals(field)) {
          return value == JsonToken.VALUE_NULL
              || (value == JsonToken.VALUE_NUMBER_INT && parser.getLongValue() == -1L);
        }
        parser.skipChildren();
      }
      return true;
    }
  }

  /** Tables not kept because the budget was spent: capture loads them again. */
  long overBudget() {
    return overBudget.get();
  }

  /** JSON bytes held now. */
  long heldBytes() {
    return bytes.get();
  }

  private static String key(List<String> namespace, String name) {
    return DesiredRelation.pathIdentity(namespace, name);
  }
}
