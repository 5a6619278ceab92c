package io.icegate.access.delta.iceberg;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.RollingManifestWriter;
import org.apache.iceberg.io.FileIO;

/**
 * Data manifests written on threads of their own while Delta Kernel's scan goes on: the capture's
 * thread hands each active file over as Kernel lists it, and a writer parses its statistics, builds
 * its entry ({@link DataFileEntries}) and writes it into that writer's manifest at once. There is a
 * writer per processor, up to {@link #MAX_WRITERS}, each with its own manifests (two on two cores:
 * the writers' share of the work is larger than the scan's). A full capture
 * otherwise runs the two one after the other (iceberg-core writes a snapshot's manifests only when
 * it commits), and the second half, statistics and manifest encoding, costs about as much as
 * Kernel's scan itself.
 *
 * <p>The manifests are written for format 2 without a snapshot id, so the snapshot that appends
 * them gives them its own (inheritance) and iceberg-core does not rewrite them. Files are handed
 * over in batches through a bounded queue, so a slow writer holds the scan back instead of
 * buffering the table. A failure on either side ends both: the scan's failure stops the writer
 * ({@link #close}), a writer's is thrown to the scan at its next hand-over or at the end. Manifests left behind
 * by a failed or abandoned capture are unreferenced generated files, collected like any other.
 */
final class StreamedManifests implements AutoCloseable {

  /** At most this many writer threads per capture. */
  static final int MAX_WRITERS = 4;

  /** Files handed over at once: a queue operation per file would cost more than a file's entry. */
  private static final int BATCH = 256;

  private static final List<ActiveFiles.ActiveFile> END = new ArrayList<>(0);

  /**
   * What was written.
   *
   * @param manifests the data manifests, each without a snapshot id
   * @param added every entry (each writer's in the order it took them)
   * @param addedBytes the data files' total size (the snapshot summary's {@code added-files-size},
   *     which iceberg-core does not count for appended manifests)
   */
  record Written(List<ManifestFile> manifests, List<DataFile> added, long addedBytes) {}

  private final BlockingQueue<List<ActiveFiles.ActiveFile>> queue = new ArrayBlockingQueue<>(8);
  private final ExecutorService threads;
  private final List<Future<Written>> writing = new ArrayList<>();
  private final FileIO io;
  private List<ActiveFiles.ActiveFile> batch = new ArrayList<>(BATCH);
  private Written written;

  /**
   * Starts the writer.
   *
   * @param entries builds the entries; used on one writer's thread only (the others get their own)
   * @param io writes the manifests
   * @param location the generated-files location the manifests go under
   * @param targetManifestBytes where a manifest is closed and the next begun
   */
  StreamedManifests(DataFileEntries entries, FileIO io, String location, long targetManifestBytes) {
    this.io = io;
    int writers = Math.max(1, Math.min(MAX_WRITERS, Runtime.getRuntime().availableProcessors()));
    this.threads =
        Executors.newFixedThreadPool(
            writers,
            r -> {
              Thread t = new Thread(r, "icegate-delta-manifests");
              t.setDaemon(true);
              return t;
            });
    for (int i = 0; i < writers; i++) {
      DataFileEntries own = i == 0 ? entries : entries.another();
      writing.add(threads.submit(() -> write(own, location, targetManifestBytes)));
    }
  }

  /** Hands one active file over to be written. */
  void add(ActiveFiles.ActiveFile file) {
    batch.add(file);
    if (batch.size() == BATCH) {
      handOver(batch);
      batch = new ArrayList<>(BATCH);
    }
  }

  /** Hands the rest over and waits until every manifest is written and closed. */
  Written finish() {
    if (written == null) {
      if (!batch.isEmpty()) {
        handOver(batch);
      }
      for (int i = 0; i < writing.size(); i++) {
        handOver(END);
      }
      List<ManifestFile> manifests = new ArrayList<>();
      List<DataFile> added = new ArrayList<>();
      long bytes = 0;
      for (Future<Written> writer : writing) {
        Written one = result(writer);
        manifests.addAll(one.manifests());
        added.addAll(one.added());
        bytes += one.addedBytes();
      }
      written = new Written(manifests, added, bytes);
    }
    return written;
  }

  /**
   * Finishes, then deletes the manifests (the capture goes on without them: {@link FirstCapture}),
   * returning the entries built, so their statistics are not read twice.
   */
  List<DataFile> abandon() {
    Written done = finish();
    for (ManifestFile manifest : done.manifests()) {
      try {
        io.deleteFile(manifest.path());
      } catch (RuntimeException e) {
        // left for the collection of unreferenced generated files
      }
    }
    return done.added();
  }

  /** Stops the writers if they still run (the scan failed). */
  @Override
  public void close() {
    if (written == null) {
      writing.forEach(w -> w.cancel(true));
    }
    threads.shutdownNow();
  }

  private Written write(DataFileEntries entries, String location, long targetBytes)
      throws IOException, InterruptedException {
    String prefix = location + "/" + UUID.randomUUID() + "-m";
    int[] count = {0};
    RollingManifestWriter<DataFile> writer =
        new RollingManifestWriter<>(
            () -> ManifestFiles.write(2, entries.spec(), io.newOutputFile(prefix + count[0]++ + ".avro"), null),
            targetBytes);
    List<DataFile> added = new ArrayList<>();
    long bytes = 0;
    try (writer) {
      for (List<ActiveFiles.ActiveFile> files = queue.take(); files != END; files = queue.take()) {
        for (ActiveFiles.ActiveFile file : files) {
          DataFile entry =
              entries.active(file.file(), entries.partition(file.partitionValues()), file.stats());
          writer.add(entry);
          added.add(entry);
          bytes += entry.fileSizeInBytes();
        }
      }
    }
    return new Written(writer.toManifestFiles(), added, bytes);
  }

  /** Queues a batch; throws a writer's failure if one ended before the scan did. */
  private void handOver(List<ActiveFiles.ActiveFile> files) {
    try {
      while (!queue.offer(files, 50, TimeUnit.MILLISECONDS)) {
        for (Future<Written> writer : writing) {
          if (writer.isDone()) {
            result(writer); // throws its failure; one that took its end marker waits for the rest
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while writing a capture's manifests", e);
    }
  }

  private static Written result(Future<Written> writer) {
    try {
      return writer.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while writing a capture's manifests", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      if (cause instanceof IOException io) {
        throw new UncheckedIOException("writing a capture's manifests failed", io);
      }
      throw new IllegalStateException("writing a capture's manifests failed", cause);
    }
  }
}
