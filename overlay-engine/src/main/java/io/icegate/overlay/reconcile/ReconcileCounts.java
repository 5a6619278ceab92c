package io.icegate.overlay.reconcile;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** The counts of one run, one number per {@link ReconcileCount}: an immutable snapshot. */
public final class ReconcileCounts {
  private static final ReconcileCount[] KINDS = ReconcileCount.values();

  private final long[] values;

  private ReconcileCounts(long[] values) {
    this.values = values;
  }

  /** The counts given, zero for every kind absent. */
  public static ReconcileCounts of(Map<ReconcileCount, Long> counts) {
    long[] values = new long[KINDS.length];
    counts.forEach((kind, n) -> values[kind.ordinal()] = n);
    return new ReconcileCounts(values);
  }

  /** Counts read back from their JSON members ({@link #asMap}); absent members count zero. */
  static ReconcileCounts fromMembers(Map<String, Long> members) {
    long[] values = new long[KINDS.length];
    for (ReconcileCount kind : KINDS) {
      Long n = members.get(kind.member());
      values[kind.ordinal()] = n == null ? 0 : n;
    }
    return new ReconcileCounts(values);
  }

  public long get(ReconcileCount kind) {
    return values[kind.ordinal()];
  }

  /** Every count by its JSON member name, in the order of {@link ReconcileCount}. */
  public Map<String, Long> asMap() {
    Map<String, Long> out = new LinkedHashMap<>();
    for (ReconcileCount kind : KINDS) {
      out.put(kind.member(), values[kind.ordinal()]);
    }
    return out;
  }

  /** Every count by kind. */
  public Map<ReconcileCount, Long> byKind() {
    Map<ReconcileCount, Long> out = new EnumMap<>(ReconcileCount.class);
    for (ReconcileCount kind : KINDS) {
      out.put(kind, values[kind.ordinal()]);
    }
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ReconcileCounts other && Arrays.equals(values, other.values);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(values);
  }

  @Override
  public String toString() {
    return asMap().toString();
  }
}
