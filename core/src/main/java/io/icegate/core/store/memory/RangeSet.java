package io.icegate.core.store.memory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A set of half-open key ranges {@code [begin, end)} in unsigned byte order, kept disjoint and
 * merged. Holds a transaction's read-conflict ranges, its range clears, and the write ranges of a
 * committed transaction. Not thread-safe.
 */
final class RangeSet {

  private final TreeMap<byte[], byte[]> ranges = new TreeMap<>(Arrays::compareUnsigned);

  /** The first key after {@code key} in unsigned byte order: {@code key + 0x00}. */
  static byte[] keyAfter(byte[] key) {
    return Arrays.copyOf(key, key.length + 1);
  }

  /** Adds the single key {@code key}, i.e. the range {@code [key, key + 0x00)}. */
  void addKey(byte[] key) {
    add(key, keyAfter(key));
  }

  /** Adds {@code [begin, end)}; an empty or inverted range adds nothing. */
  void add(byte[] begin, byte[] end) {
    if (Arrays.compareUnsigned(begin, end) >= 0) {
      return;
    }
    byte[] start = begin;
    byte[] stop = end;
    Map.Entry<byte[], byte[]> before = ranges.floorEntry(begin);
    if (before != null && Arrays.compareUnsigned(before.getValue(), begin) >= 0) {
      start = before.getKey();
      stop = max(stop, before.getValue());
      ranges.remove(before.getKey());
    }
    Map.Entry<byte[], byte[]> next = ranges.ceilingEntry(start);
    while (next != null && Arrays.compareUnsigned(next.getKey(), stop) <= 0) {
      stop = max(stop, next.getValue());
      ranges.remove(next.getKey());
      next = ranges.ceilingEntry(start);
    }
    ranges.put(start, stop);
  }

  /** Whether some range contains {@code key}. */
  boolean contains(byte[] key) {
    Map.Entry<byte[], byte[]> e = ranges.floorEntry(key);
    return e != null && Arrays.compareUnsigned(e.getValue(), key) > 0;
  }

  /** Whether some range shares a key with {@code [begin, end)}. */
  boolean intersects(byte[] begin, byte[] end) {
    if (Arrays.compareUnsigned(begin, end) >= 0) {
      return false;
    }
    // Ranges are disjoint and sorted: if the last one starting before `end` ends at or before
    // `begin`, every earlier one does too.
    Map.Entry<byte[], byte[]> e = ranges.lowerEntry(end);
    return e != null && Arrays.compareUnsigned(e.getValue(), begin) > 0;
  }

  /** Whether some range of {@code other} intersects one of this set. */
  boolean intersects(RangeSet other) {
    RangeSet small = ranges.size() <= other.ranges.size() ? this : other;
    RangeSet large = small == this ? other : this;
    for (Map.Entry<byte[], byte[]> e : small.ranges.entrySet()) {
      if (large.intersects(e.getKey(), e.getValue())) {
        return true;
      }
    }
    return false;
  }

  boolean isEmpty() {
    return ranges.isEmpty();
  }

  /** The ranges in ascending order. */
  List<Range> ranges() {
    List<Range> out = new ArrayList<>(ranges.size());
    ranges.forEach((b, e) -> out.add(new Range(b, e)));
    return out;
  }

  /** One range {@code [begin, end)}. */
  record Range(byte[] begin, byte[] end) {}

  private static byte[] max(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b) >= 0 ? a : b;
  }
}
