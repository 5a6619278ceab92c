package io.icegate.overlay.reconcile;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.model.UpstreamTableMetadata;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Provenance;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.Table;
import io.icegate.core.repo.Repositories;
import io.icegate.overlay.store.capture.CaptureOutcome;
import io.icegate.overlay.store.capture.CapturePointer;
import io.icegate.overlay.store.capture.CapturePointers;
import io.icegate.overlay.store.capture.Captures;
import io.icegate.overlay.store.relation.ManagedRelations;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * The capture phase (issue 10, "Capture"): for each managed Iceberg Table of the Overlay whose
 * upstream metadata location differs from its capture pointer's, takes the table metadata that
 * discovery kept ({@link MetadataStash}) or loads it upstream, and publishes it ({@link Captures})
 * in batches: the blobs of many Tables per transaction, then their pointers in one transaction
 * fenced by the run ({@link RunFence}) once. A Table whose pointer already names the known
 * location costs no upstream call and no write. One Table failing is a warning and a count, not a
 * failed run; a superseded run stops.
 */
final class TableCapturer {
  private static final ManagedRelations MANAGED = new ManagedRelations();
  private static final CapturePointers POINTERS = new CapturePointers();
  private static final String ICEBERG = "ICEBERG";

  /**
   * One Table to capture.
   *
   * @param tableId the managed Table
   * @param upstreamNamespace where it lives upstream
   * @param upstreamName its upstream name
   * @param knownLocation the upstream metadata location this run observed, or {@code null} when
   *     only the upstream can tell (a capture on request)
   */
  record Target(String tableId, List<String> upstreamNamespace, String upstreamName,
      String knownLocation, String knownCommit) {
    /** A Table whose upstream file is told by its location alone. */
    Target(String tableId, List<String> upstreamNamespace, String upstreamName,
        String knownLocation) {
      this(tableId, upstreamNamespace, upstreamName, knownLocation, null);
    }

    String displayPath() {
      return String.join(".", upstreamNamespace) + "." + upstreamName;
    }
  }

  /**
   * Counts and warnings of one capture phase.
   *
   * @param capturedTableIds the Tables that got a new capture generation, in no particular order
   */
  record Result(long captured, long unchanged, long failed, List<String> warnings,
      List<String> capturedTableIds) {}

  private final Repositories repositories;
  private final Captures captures;
  private final RunFence fence;
  private final int concurrency;
  private final int batch;

  /**
   * @param batch Tables per publication at most (their blobs also capped at {@value
   *     Publisher#BATCH_BYTES} bytes)
   */
  TableCapturer(Repositories repositories, RunFence fence, int concurrency, int batch) {
    this.repositories = repositories;
    this.captures = new Captures(repositories);
    this.fence = fence;
    this.concurrency = concurrency;
    this.batch = batch;
  }

  /** The managed Iceberg Tables of a run's inventory, with the locations the run observed. */
  List<Target> ofInventory(Inventory inventory) {
    String account = fence.accountId();
    String overlay = fence.overlay().id();
    return repositories.store().read(tx -> {
      List<Target> targets = new ArrayList<>();
      for (DesiredRelation desired : inventory.relations()) {
        if (desired.kind() != ResourceKind.TABLE || !ICEBERG.equals(desired.tableFormat())
            || desired.upstreamMetadataLocation() == null) {
          continue;
        }
        MANAGED.find(tx, account, overlay, ResourceKind.TABLE, desired.externalId())
            .ifPresent(id -> targets.add(new Target(id, desired.namespace(), desired.name(),
                desired.upstreamMetadataLocation())));
      }
      return targets;
    });
  }

  /** Every managed Iceberg Table of the Overlay, to be compared with the upstream's state. */
  List<Target> ofOverlay(int page) {
    return ofOverlay(page, ICEBERG);
  }

  /** Every managed Table of {@code format} of the Overlay, to be compared with the upstream's. */
  List<Target> ofOverlay(int page, String format) {
    String account = fence.accountId();
    String overlay = fence.overlay().id();
    List<Target> targets = new ArrayList<>();
    ManagedRelations.Entry after = null;
    while (true) {
      ManagedRelations.Entry from = after;
      List<ManagedRelations.Entry> entries = repositories.store().read(tx -> {
        List<ManagedRelations.Entry> found = MANAGED.managedBy(tx, account, overlay, from, page);
        for (ManagedRelations.Entry entry : found) {
          if (entry.kind() != ResourceKind.TABLE) {
            continue;
          }
          Optional<Resource<Table>> table =
              repositories.tables(account).get(tx, entry.relationId());
          Provenance p = table.map(t -> t.spec().provenance()).orElse(null);
          if (p != null && format.equals(p.tableFormat())) {
            targets.add(new Target(entry.relationId(), p.upstreamNamespace(), p.upstreamName(),
                null));
          }
        }
        return found;
      });
      if (entries.size() < page) {
        return targets;
      }
      after = entries.get(entries.size() - 1);
    }
  }

  /**
   * Captures {@code targets} in batches of at most {@code batch} Tables and about {@value
   * Publisher#BATCH_BYTES} bytes of metadata: each Table's metadata from {@code stash} when
   * discovery kept it for the observed location, else loaded upstream with up to {@code
   * concurrency} loads in flight; each batch through {@link Captures#publishAll} (blob
   * transactions, one fenced pointer transaction). The client is opened only when some Table needs
   * the upstream.
   *
   * @throws IcegateException RECONCILE_SUPERSEDED when the run went stale
   */
  Result capture(List<Target> targets, MetadataStash stash, Supplier<CatalogClient> open) {
    String account = fence.accountId();
    List<Target> work = new ArrayList<>();
    List<Optional<CapturePointer>> expected = new ArrayList<>();
    long unchanged = repositories.store().read(tx -> {
      long same = 0;
      for (Target target : targets) {
        Optional<CapturePointer> pointer = POINTERS.get(tx, account, target.tableId());
        if (target.knownLocation() != null && pointer.isPresent()
            && pointer.get().upstreamMetadataLocation().equals(target.knownLocation())) {
          same++;
        } else {
          work.add(target);
          expected.add(pointer);
        }
      }
      return same;
    });
    if (work.isEmpty()) {
      return new Result(0, unchanged, 0, List.of(), List.of());
    }
    Tally tally = new Tally(unchanged);
    List<Captures.Candidate> candidates = new ArrayList<>();
    List<Target> of = new ArrayList<>();
    long bytes = 0;
    try (Upstream upstream = new Upstream(open)) {
      // At most `concurrency` Tables between their load and their batch: loads overlap each
      // other and the publication of the batch before, and memory stays bounded by the window
      // plus one batch.
      ArrayDeque<Pending> window = new ArrayDeque<>();
      int next = 0;
      while (next < work.size() || !window.isEmpty()) {
        while (next < work.size() && window.size() < concurrency) {
          Target target = work.get(next);
          byte[] kept = stash.take(target.upstreamNamespace(), target.upstreamName(),
              target.knownLocation()).orElse(null);
          window.add(new Pending(target, expected.get(next), kept,
              kept == null ? upstream.load(target) : null));
          next++;
        }
        Pending p = window.poll();
        Captures.Candidate candidate = null;
        if (p.kept() != null) {
          candidate = new Captures.Candidate(p.target().tableId(), p.expected(),
              p.target().knownLocation(), p.kept());
        } else {
          Optional<UpstreamTableMetadata> metadata = upstream.await(p.load(), p.target(), tally);
          if (metadata.isPresent()) {
            candidate = new Captures.Candidate(p.target().tableId(), p.expected(),
                metadata.get().metadataLocation(),
                metadata.get().metadataJson().getBytes(StandardCharsets.UTF_8));
          }
        }
        if (candidate != null) {
          candidates.add(candidate);
          of.add(p.target());
          bytes += candidate.metadataJson().length;
        }
        if (candidates.size() >= batch || bytes >= Publisher.BATCH_BYTES) {
          publish(candidates, of, tally);
          candidates = new ArrayList<>();
          of = new ArrayList<>();
          bytes = 0;
        }
      }
      publish(candidates, of, tally);
    }
    return tally.result();
  }

  /** Publishes {@code candidates} (of {@code targets}) in slices of at most the batch bytes. */
  private void publish(List<Captures.Candidate> candidates, List<Target> targets, Tally tally) {
    int from = 0;
    while (from < candidates.size()) {
      int to = from;
      long bytes = 0;
      while (to < candidates.size() && (to == from
          || bytes + candidates.get(to).metadataJson().length <= Publisher.BATCH_BYTES)) {
        bytes += candidates.get(to).metadataJson().length;
        to++;
      }
      List<Captures.Candidate> slice = candidates.subList(from, to);
      List<Target> sliceTargets = targets.subList(from, to);
      List<CaptureOutcome> outcomes;
      try {
        outcomes = captures.publishAll(fence.accountId(), fence.overlay().id(), slice,
            fence::assertAndRenew);
      } catch (IcegateException e) {
        if (e.code() == ErrorCode.RECONCILE_SUPERSEDED) {
          throw e;
        }
        outcomes = oneByOne(slice, sliceTargets, tally);
      } catch (RuntimeException e) {
        outcomes = oneByOne(slice, sliceTargets, tally);
      }
      for (int k = 0; k < slice.size(); k++) {
        tally.count(sliceTargets.get(k), slice.get(k), outcomes.get(k));
      }
      from = to;
    }
  }

  /**
   * A batch that failed as a whole is published Table by Table, so one Table that cannot be
   * published (or a store failure that outlived the retries) costs one warning, not the batch.
   */
  private List<CaptureOutcome> oneByOne(List<Captures.Candidate> slice, List<Target> targets,
      Tally tally) {
    List<CaptureOutcome> outcomes = new ArrayList<>(slice.size());
    for (int k = 0; k < slice.size(); k++) {
      Captures.Candidate c = slice.get(k);
      String what = "capture of table " + targets.get(k).displayPath();
      try {
        outcomes.add(captures.publish(fence.accountId(), fence.overlay().id(), c.tableId(),
            c.expected(), c.location(), c.metadataJson(), fence::assertAndRenew));
      } catch (IcegateException e) {
        if (e.code() == ErrorCode.RECONCILE_SUPERSEDED) {
          throw e;
        }
        tally.warn(what + " failed: " + e.code());
        outcomes.add(null);
      } catch (RuntimeException e) {
        tally.warn(what + " failed: " + e.getClass().getSimpleName());
        outcomes.add(null);
      }
    }
    return outcomes;
  }

  /** One Table in the window: its metadata kept by discovery, or its upstream load under way. */
  private record Pending(Target target, Optional<CapturePointer> expected, byte[] kept,
      Future<UpstreamTableMetadata> load) {}

  /** Outcomes so far (also of Delta capture, {@link DeltaCapturer}). */
  static final class Tally {
    private long captured;
    long unchanged;
    long failed;
    private final List<String> warnings = new ArrayList<>();
    private final List<String> capturedTableIds = new ArrayList<>();

    Tally(long unchanged) {
      this.unchanged = unchanged;
    }

    /** {@code outcome} {@code null}: failed, its warning already given. */
    void count(Target target, Captures.Candidate candidate, CaptureOutcome outcome) {
      if (outcome instanceof CaptureOutcome.Captured) {
        captured++;
        capturedTableIds.add(candidate.tableId());
      } else if (outcome instanceof CaptureOutcome.Unchanged) {
        unchanged++;
      } else {
        failed++;
        if (outcome instanceof CaptureOutcome.Skipped skipped) {
          warn("capture of table " + target.displayPath() + " skipped: " + skipped.reason());
        }
      }
    }

    void fail(String warning) {
      failed++;
      warn(warning);
    }

    void warn(String warning) {
      warnings.add(warning);
    }

    Result result() {
      return new Result(captured, unchanged, failed, List.copyOf(warnings),
          List.copyOf(capturedTableIds));
    }
  }

  /**
   * The upstream side of a capture: the client, opened on first need, and the load pool; a client
   * that cannot be opened fails each Table that needs it, with one warning for all.
   */
  private final class Upstream implements AutoCloseable {
    private final Supplier<CatalogClient> open;
    private CatalogClient client;
    private ExecutorService pool;
    private String unavailable;
    private boolean warned;

    Upstream(Supplier<CatalogClient> open) {
      this.open = open;
    }

    /** Starts loading {@code target}'s metadata; {@code null} when the upstream is unavailable. */
    Future<UpstreamTableMetadata> load(Target target) {
      if (client == null && unavailable == null) {
        try {
          client = open.get();
        } catch (CatalogAccessException | IcegateException e) {
          if (e instanceof IcegateException i && i.code() == ErrorCode.RECONCILE_SUPERSEDED) {
            throw i;
          }
          unavailable = "capture: the upstream could not be opened: " + e.getMessage();
        }
      }
      if (client == null) {
        return null;
      }
      if (pool == null) {
        pool = Executors.newFixedThreadPool(concurrency, r -> {
          Thread t = new Thread(r, "reconcile-capture");
          t.setDaemon(true);
          return t;
        });
      }
      CatalogClient c = client;
      return pool.submit(() -> c.loadTableMetadata(new NamespacePath(target.upstreamNamespace()),
          target.upstreamName()));
    }

    /** The loaded metadata, or empty with the failure counted and warned. */
    Optional<UpstreamTableMetadata> await(Future<UpstreamTableMetadata> load, Target target,
        Tally tally) {
      if (load == null) {
        tally.failed++;
        if (!warned) {
          warned = true;
          tally.warn(unavailable);
        }
        return Optional.empty();
      }
      String what = "capture of table " + target.displayPath();
      try {
        return Optional.of(load.get());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while capturing", e);
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof CatalogAccessException access) {
          tally.fail(what + " failed: " + access.code() + ": " + access.getMessage());
        } else if (cause instanceof IcegateException icegate) {
          tally.fail(what + " failed: " + icegate.code());
        } else {
          tally.fail(what + " failed: " + cause.getClass().getSimpleName());
        }
        return Optional.empty();
      }
    }

    @Override
    public void close() {
      if (pool != null) {
        pool.shutdownNow();
      }
      if (client != null) {
        client.close();
      }
    }
  }
}
