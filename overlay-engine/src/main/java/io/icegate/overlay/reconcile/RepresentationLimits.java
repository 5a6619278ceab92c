package io.icegate.overlay.reconcile;

import io.icegate.access.model.CatalogObjectKind;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Namespace;
import io.icegate.core.model.Provenance;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.Table;
import io.icegate.core.model.View;
import java.util.List;
import java.util.Map;

/**
 * Whether icegate can store an upstream name: the very records the reconciler would write are
 * built (without writing them), so the rules are core's own (name length, control characters,
 * namespace depth) and never a copy that could drift. Checked during discovery, so an unstorable
 * name is a held object found before publication starts, not a failure in the middle of it.
 */
final class RepresentationLimits {
  /** A syntactically valid id for records built only to be checked. */
  private static final String PROBE = "probe";

  private RepresentationLimits() {}

  /** Why namespace {@code path} cannot be stored, or {@code null} when it can. */
  static String namespaceProblem(List<String> path) {
    try {
      new Namespace(PROBE, path, Map.of());
      return null;
    } catch (IcegateException e) {
      return reason(e);
    }
  }

  /** Why a table or view named {@code name} cannot be stored, or {@code null} when it can. */
  static String nameProblem(CatalogObjectKind kind, String name) {
    try {
      if (kind == CatalogObjectKind.TABLE) {
        new Table(PROBE, List.of(PROBE), name, PROBE, Map.of());
      } else {
        new View(PROBE, List.of(PROBE), name, PROBE, Map.of(), null);
      }
      return null;
    } catch (IcegateException e) {
      return reason(e);
    }
  }

  /**
   * Why the managed record of {@code desired} cannot be stored (its provenance included: an empty
   * upstream identity, say), or {@code null} when it can.
   */
  static String relationProblem(DesiredRelation desired) {
    try {
      Provenance provenance = desired.provenance(PROBE, PROBE);
      if (desired.kind() == ResourceKind.TABLE) {
        new Table(PROBE, desired.namespace(), desired.name(), null, Map.of(), provenance);
      } else {
        new View(PROBE, desired.namespace(), desired.name(), null, Map.of(), provenance);
      }
      return null;
    } catch (IcegateException e) {
      return reason(e);
    }
  }

  /** The model's reason without the catalogue's "invalid argument: " prefix. */
  private static String reason(IcegateException e) {
    String message = e.getMessage();
    int colon = message.indexOf(": ");
    return colon < 0 ? message : message.substring(colon + 2);
  }
}
