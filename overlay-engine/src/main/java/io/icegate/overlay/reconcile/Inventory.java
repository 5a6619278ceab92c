package io.icegate.overlay.reconcile;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The complete desired inventory of one run (phase 1's result): every selected namespace and
 * every table and view in them. Only a complete inventory exists; a discovery that failed
 * anywhere produces none, so nothing partial can classify a resource as stale.
 *
 * @param namespaces selected namespace paths icegate can store, in discovery order
 * @param relations desired Tables and Views
 * @param held listed objects (and namespaces) that publish nothing this run ({@link HeldObject});
 *     still part of the inventory, so what was materialized of them is not stale
 * @param warnings e.g. two upstream paths sharing one stable identity
 */
public record Inventory(List<List<String>> namespaces, List<DesiredRelation> relations,
    List<HeldObject> held, List<String> warnings) {

  public Inventory {
    namespaces = List.copyOf(namespaces);
    relations = List.copyOf(relations);
    held = List.copyOf(held);
    warnings = List.copyOf(warnings);
  }

  /** The identity keys of every desired relation ({@link DesiredRelation#identityKey()}). */
  public Set<String> identityKeys() {
    return relations.stream().map(DesiredRelation::identityKey).collect(Collectors.toSet());
  }

  /**
   * This inventory with {@code more} held as well: the desired relations of their identities move
   * to {@link #held} (preflight found their paths blocked by a held object).
   */
  Inventory holding(List<HeldObject> more) {
    if (more.isEmpty()) {
      return this;
    }
    Set<String> keys = more.stream().map(HeldObject::identityKey).collect(Collectors.toSet());
    List<HeldObject> all = new java.util.ArrayList<>(held);
    all.addAll(more);
    return new Inventory(namespaces, relations.stream()
        .filter(r -> !keys.contains(r.identityKey())).toList(), all, warnings);
  }
}
