package io.icegate.core.store.memory;

import java.util.Arrays;

/**
 * The committed versions of one key, oldest first: {@code (version, value)} pairs where a {@code
 * null} value records a clear. Immutable: a commit replaces the chain of every key it writes, so a
 * reader holding the old chain is never disturbed.
 */
final class VersionChain {

  private final long[] versions;
  private final byte[][] values;

  private VersionChain(long[] versions, byte[][] values) {
    this.versions = versions;
    this.values = values;
  }

  static VersionChain of(long version, byte[] value) {
    return new VersionChain(new long[] {version}, new byte[][] {value});
  }

  /** The value visible at {@code readVersion}, or {@code null} when absent or cleared. */
  byte[] valueAt(long readVersion) {
    int i = newestAtOrBefore(readVersion);
    return i < 0 ? null : values[i];
  }

  /** The value of the newest version, or {@code null} when cleared. */
  byte[] latest() {
    return values[values.length - 1];
  }

  /**
   * This chain with {@code value} at {@code version}. A key written twice by one commit (a range
   * clear, then a set) keeps only the later write.
   */
  VersionChain append(long version, byte[] value) {
    int n = versions.length;
    if (versions[n - 1] == version) {
      byte[][] replaced = values.clone();
      replaced[n - 1] = value;
      return new VersionChain(versions, replaced);
    }
    long[] v = Arrays.copyOf(versions, n + 1);
    byte[][] x = Arrays.copyOf(values, n + 1);
    v[n] = version;
    x[n] = value;
    return new VersionChain(v, x);
  }

  /**
   * This chain as seen by readers at {@code horizon} or later: versions older than the newest one
   * at or before the horizon are dropped, and that one too when it is a clear (absent and cleared
   * read the same). Returns {@code null} when nothing is left, i.e. the key can be forgotten.
   */
  VersionChain compact(long horizon) {
    int keep = newestAtOrBefore(horizon);
    if (keep >= 0 && values[keep] == null) {
      keep++;
    }
    if (keep <= 0) {
      return this;
    }
    if (keep == versions.length) {
      return null;
    }
    return new VersionChain(
        Arrays.copyOfRange(versions, keep, versions.length),
        Arrays.copyOfRange(values, keep, values.length));
  }

  /** Number of versions held, for tests of pruning. */
  int size() {
    return versions.length;
  }

  private int newestAtOrBefore(long version) {
    int i = Arrays.binarySearch(versions, version);
    return i >= 0 ? i : -i - 2;
  }
}
