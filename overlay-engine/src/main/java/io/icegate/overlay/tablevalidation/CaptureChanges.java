package io.icegate.overlay.tablevalidation;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a Delta capture changed, handed from the capture step to the validation step of the same
 * process (issue 26, "Validation of the captured files is incremental"): keyed by the digest of
 * the captured metadata, the capture generation it was built on and the data files it added. The
 * validator checks only those files when the base capture validated clean, keeping that verdict
 * for every file the new capture did not add. A hint, not state: bounded, lost on restart, absent
 * when another gateway captured; then the validator checks every file, as before. Thread-safe.
 */
public final class CaptureChanges {
  /** Captures remembered at once; older hints are dropped first. */
  private static final int CAPACITY = 4_096;
  /** A capture adding more files than this is validated in full anyway (memory bound). */
  private static final int MAX_FILES = 100_000;

  /**
   * One capture's change.
   *
   * @param baseGeneration the capture generation the new capture extended
   * @param addedDataFiles the locations of the data files it added (new, or entered again)
   */
  public record Change(long baseGeneration, Set<String> addedDataFiles) {
    public Change {
      addedDataFiles = Set.copyOf(addedDataFiles);
    }
  }

  /**
   * The process's hints: capture and validation of one reconcile run in one process, whichever
   * Reconciler or capture request made them.
   */
  public static final CaptureChanges IN_PROCESS = new CaptureChanges();

  private final Map<String, Change> byDigest = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Change> eldest) {
      return size() > CAPACITY;
    }
  };

  /**
   * Remembers that the capture whose metadata JSON has digest {@code digest} extended capture
   * generation {@code baseGeneration} by adding {@code addedDataFiles} only, under the same
   * schema and partition spec (the caller's promise: other files' earlier verdicts still hold).
   */
  public synchronized void record(String digest, long baseGeneration, Set<String> addedDataFiles) {
    if (addedDataFiles.size() <= MAX_FILES) {
      byDigest.put(digest, new Change(baseGeneration, addedDataFiles));
    }
  }

  /** The change recorded for the capture with {@code digest}, if this process made it. */
  public synchronized Optional<Change> of(String digest) {
    return Optional.ofNullable(byDigest.get(digest));
  }
}
