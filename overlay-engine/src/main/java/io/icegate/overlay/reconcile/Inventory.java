package io.icegate.overlay.reconcile;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The complete desired inventory of one run (phase 1's result): every selected namespace and
 * every table and view in them. Only a complete inventory exists; a discovery that failed
 * anywhere produces none, so nothing partial can classify a resource as stale.
 *
 * @param namespaces selected namespace paths, in discovery order
 * @param relations desired Tables and Views
 * @param warnings e.g. two upstream paths sharing one stable identity
 */
public record Inventory(List<List<String>> namespaces, List<DesiredRelation> relations,
    List<String> warnings) {

  public Inventory {
    namespaces = List.copyOf(namespaces);
    relations = List.copyOf(relations);
    warnings = List.copyOf(warnings);
  }

  /** The identity keys of every desired relation ({@link DesiredRelation#identityKey()}). */
  public Set<String> identityKeys() {
    return relations.stream().map(DesiredRelation::identityKey).collect(Collectors.toSet());
  }
}
