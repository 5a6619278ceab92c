package io.icegate.overlay.reconcile;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.ResourceKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The path handovers of one run (seed 000 "Upstream identity"; DESIGN.md "Path handover"): a
 * destination path that passes from one identity of this Overlay to another in the same run. Each
 * desired relation whose path is held by this Overlay's relation of another identity points at
 * that holder; since a path has one holder and a relation one desired path, these edges form
 * disjoint chains and cycles. A chain ends at a holder whose own desired path is free, or at a
 * stale holder being retired; a cycle is a permutation of paths (a swap, a rotation).
 *
 * <p>Each such component is published in one transaction ({@link Publisher}): every committed
 * state keeps each identity at exactly one path, and a crash between components leaves a state the
 * next run converges from. Members are ordered chain tail first, so in that transaction each
 * member's path is free when its turn comes; a cycle is broken by moving one member aside to a
 * transaction-private name ({@link Destination#moveAside}). A chain too large for one transaction
 * is split into consecutive segments, tail segment first (each committed state is still valid); a
 * cycle cannot be split, so a cycle over {@link #MAX_RELATIONS} relations or {@link #MAX_BYTES}
 * bytes fails the run before anything is published.
 */
final class PathHandovers {
  /** Relations per handover transaction: far below the 5 s transaction age on every store. */
  static final int MAX_RELATIONS = 1_000;
  /**
   * Estimated write bytes per handover transaction (definitions written plus {@value
   * #RECORD_BYTES} per relation for its record and keys), below the store's 10 MB.
   */
  static final long MAX_BYTES = 8L * 1024 * 1024;
  /** Estimated bytes of one relation's record, name and index keys. */
  static final int RECORD_BYTES = 2048;

  /**
   * One connected component: its desired relations in publication order.
   *
   * @param members chain tail first; for a cycle any rotation
   * @param cycle whether the component is a cycle (it needs one member moved aside)
   * @param bytes estimated write bytes
   */
  record Component(List<DesiredRelation> members, boolean cycle, long bytes) {}

  private final Map<String, DesiredRelation> byKey = new LinkedHashMap<>();
  /** Desired key to the key of the holder of its path (a desired relation of this Overlay). */
  private final Map<String, String> wants = new HashMap<>();
  private final Map<String, Long> bytes = new HashMap<>();

  /**
   * Notes that {@code desired} is part of a handover: its path is held by the desired relation
   * {@code holderKey} ({@code null} when it is held by a stale relation being retired).
   *
   * @param writeBytes estimated bytes its publication writes
   */
  void add(DesiredRelation desired, String holderKey, long writeBytes) {
    byKey.put(desired.identityKey(), desired);
    bytes.put(desired.identityKey(), writeBytes);
    if (holderKey != null) {
      wants.put(desired.identityKey(), holderKey);
    }
  }

  /** Notes a holder that moves away (its own decision is otherwise plain). */
  void addHolder(DesiredRelation holder, long writeBytes) {
    byKey.putIfAbsent(holder.identityKey(), holder);
    bytes.putIfAbsent(holder.identityKey(), writeBytes);
  }

  /** Whether {@code key} takes part in a handover. */
  boolean involves(String key) {
    return byKey.containsKey(key);
  }

  /** Keys of holders some desired relation wants to take over, not noted with {@link #addHolder}. */
  Set<String> missingHolders() {
    Set<String> out = new LinkedHashSet<>();
    for (String holder : wants.values()) {
      if (!byKey.containsKey(holder)) {
        out.add(holder);
      }
    }
    return out;
  }

  /**
   * The components, each in publication order, chains over the limits split into segments.
   *
   * @throws IcegateException RECONCILE_HANDOVER_TOO_LARGE for a cycle over the limits
   */
  List<Component> components() {
    Map<String, String> wantedBy = new HashMap<>();
    wants.forEach((desired, holder) -> wantedBy.put(holder, desired));
    Set<String> done = new LinkedHashSet<>();
    List<Component> out = new ArrayList<>();
    for (String key : byKey.keySet()) {
      if (!wants.containsKey(key) && !done.contains(key)) {
        // a chain tail: its path is free or held by a stale relation
        List<String> chain = new ArrayList<>();
        for (String at = key; at != null && done.add(at); at = wantedBy.get(at)) {
          chain.add(at);
        }
        out.addAll(segments(chain));
      }
    }
    for (String key : byKey.keySet()) {
      if (!done.contains(key)) {
        List<String> cycle = new ArrayList<>();
        for (String at = key; done.add(at); at = wantedBy.get(at)) {
          cycle.add(at);
        }
        Component component = component(cycle, true);
        if (component.members().size() > MAX_RELATIONS || component.bytes() > MAX_BYTES) {
          throw new IcegateException(ErrorCode.RECONCILE_HANDOVER_TOO_LARGE, ResourceKind.OVERLAY,
              ErrorCode.RECONCILE_HANDOVER_TOO_LARGE.format(component.members().size(),
                  component.bytes(), MAX_RELATIONS, MAX_BYTES), null,
              List.of("cycle of path handovers: " + component.members().stream()
                  .limit(10).map(DesiredRelation::displayPath).toList()
                  + (component.members().size() > 10 ? " ..." : "")));
        }
        out.add(component);
      }
    }
    return out;
  }

  /** {@code chain} (tail first) as one component, or consecutive segments within the limits. */
  private List<Component> segments(List<String> chain) {
    List<Component> out = new ArrayList<>();
    List<String> segment = new ArrayList<>();
    long size = 0;
    for (String key : chain) {
      long b = bytes.get(key);
      if (!segment.isEmpty() && (segment.size() >= MAX_RELATIONS || size + b > MAX_BYTES)) {
        out.add(component(segment, false));
        segment = new ArrayList<>();
        size = 0;
      }
      segment.add(key);
      size += b;
    }
    if (!segment.isEmpty()) {
      out.add(component(segment, false));
    }
    return out;
  }

  private Component component(List<String> keys, boolean cycle) {
    List<DesiredRelation> members = keys.stream().map(byKey::get).toList();
    long total = keys.stream().mapToLong(bytes::get).sum();
    return new Component(members, cycle, total);
  }
}
