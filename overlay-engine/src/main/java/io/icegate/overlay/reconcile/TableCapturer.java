package io.icegate.overlay.reconcile;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.model.UpstreamTableMetadata;
import io.icegate.core.capture.CaptureOutcome;
import io.icegate.core.capture.CapturePointer;
import io.icegate.core.capture.CapturePointers;
import io.icegate.core.capture.Captures;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Provenance;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.Table;
import io.icegate.core.overlay.ManagedRelations;
import io.icegate.core.repo.Repositories;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * The capture phase (issue 10, "Capture"): for each managed Iceberg Table of the Overlay whose
 * upstream metadata location differs from its capture pointer's, loads the upstream table
 * metadata and publishes it ({@link Captures}), every pointer transaction fenced by the run
 * ({@link RunFence}). A Table whose pointer already names the known location costs no upstream
 * call and no write. One Table failing is a warning and a count, not a failed run; a superseded
 * run stops.
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
      String knownLocation) {
    String displayPath() {
      return String.join(".", upstreamNamespace) + "." + upstreamName;
    }
  }

  /** Counts and warnings of one capture phase. */
  record Result(long captured, long unchanged, long failed, List<String> warnings) {}

  private final Repositories repositories;
  private final Captures captures;
  private final RunFence fence;
  private final int concurrency;

  TableCapturer(Repositories repositories, RunFence fence, int concurrency) {
    this.repositories = repositories;
    this.captures = new Captures(repositories);
    this.fence = fence;
    this.concurrency = concurrency;
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
          if (p != null && ICEBERG.equals(p.tableFormat())) {
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
   * Captures {@code targets}; the client is opened only when some Table needs the upstream.
   *
   * @throws IcegateException RECONCILE_SUPERSEDED when the run went stale
   */
  Result capture(List<Target> targets, Supplier<CatalogClient> open) {
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
      return new Result(0, unchanged, 0, List.of());
    }
    List<String> warnings = Collections.synchronizedList(new ArrayList<>());
    CatalogClient client;
    try {
      client = open.get();
    } catch (CatalogAccessException | IcegateException e) {
      if (e instanceof IcegateException i && i.code() == ErrorCode.RECONCILE_SUPERSEDED) {
        throw i;
      }
      return new Result(0, unchanged, work.size(),
          List.of("capture: the upstream could not be opened: " + e.getMessage()));
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(concurrency, work.size()), r -> {
      Thread t = new Thread(r, "reconcile-capture");
      t.setDaemon(true);
      return t;
    });
    try (client) {
      List<Future<CaptureOutcome>> futures = new ArrayList<>();
      for (int i = 0; i < work.size(); i++) {
        Target target = work.get(i);
        Optional<CapturePointer> read = expected.get(i);
        futures.add(pool.submit(() -> one(client, target, read, warnings)));
      }
      long captured = 0;
      long failed = 0;
      for (Future<CaptureOutcome> future : futures) {
        CaptureOutcome outcome = await(future);
        if (outcome instanceof CaptureOutcome.Captured) {
          captured++;
        } else if (outcome instanceof CaptureOutcome.Unchanged) {
          unchanged++;
        } else {
          failed++;
        }
      }
      return new Result(captured, unchanged, failed, List.copyOf(warnings));
    } finally {
      pool.shutdownNow();
    }
  }

  /** One Table; a failure becomes a warning and a {@code Skipped} outcome. */
  private CaptureOutcome one(CatalogClient client, Target target,
      Optional<CapturePointer> expected, List<String> warnings) {
    String what = "capture of table " + target.displayPath();
    try {
      UpstreamTableMetadata metadata = client.loadTableMetadata(
          new NamespacePath(target.upstreamNamespace()), target.upstreamName());
      CaptureOutcome outcome = captures.publish(fence.accountId(), fence.overlay().id(),
          target.tableId(), expected, metadata.metadataLocation(),
          metadata.metadataJson().getBytes(StandardCharsets.UTF_8), fence::assertAndRenew);
      if (outcome instanceof CaptureOutcome.Skipped skipped) {
        warnings.add(what + " skipped: " + skipped.reason());
      }
      return outcome;
    } catch (CatalogAccessException e) {
      warnings.add(what + " failed: " + e.code() + ": " + e.getMessage());
    } catch (IcegateException e) {
      if (e.code() == ErrorCode.RECONCILE_SUPERSEDED) {
        throw e;
      }
      warnings.add(what + " failed: " + e.code());
    } catch (RuntimeException e) {
      warnings.add(what + " failed: " + e.getClass().getSimpleName());
    }
    return new CaptureOutcome.Skipped(what + " failed");
  }

  private static CaptureOutcome await(Future<CaptureOutcome> future) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while capturing", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    }
  }
}
