package io.icegate.core.testing;

import com.apple.foundationdb.tuple.Tuple;
import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.core.model.ModelJson;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.ReadTransaction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Invariants of upstream jobs and scheduler state (issue 27), part of {@link InvariantChecker}:
 * every job and every scheduler-state entry belongs to an Integration that exists or is being
 * deleted (its fence installed), and every Overlay a job or an entry names exists or is being
 * deleted. So a completed deletion of an Overlay, an Integration or an account left none of them.
 */
final class JobInvariants {
  private JobInvariants() {}

  static void check(ReadTransaction tx, Map<String, Resource<?>> byId, Set<String> partitions,
      List<String> violations) {
    for (KeyValue kv : tx.getRange(KeySubspace.JOBS.range().begin, KeySubspace.JOBS.range().end)) {
      Tuple key = KeySubspace.JOBS.unpack(kv.key());
      String account = key.getString(0);
      partitions.add(account);
      requirePresent(tx, byId, account, ResourceKind.INTEGRATION, key.getString(1), "job",
          violations);
      for (JsonNode p : json(kv.value()).path("participants")) {
        requirePresent(tx, byId, account, ResourceKind.OVERLAY, p.path("overlayId").asText(),
            "job of integration " + key.getString(1), violations);
      }
    }
    for (KeyValue kv : tx.getRange(KeySubspace.SCHEDULES.range().begin,
        KeySubspace.SCHEDULES.range().end)) {
      Tuple key = KeySubspace.SCHEDULES.unpack(kv.key());
      String account = key.getString(0);
      partitions.add(account);
      requirePresent(tx, byId, account, ResourceKind.INTEGRATION, key.getString(1),
          "scheduler state", violations);
      if (key.size() > 2) {
        requirePresent(tx, byId, account, ResourceKind.OVERLAY, key.getString(2),
            "scheduler state of integration " + key.getString(1), violations);
      }
    }
  }

  private static void requirePresent(ReadTransaction tx, Map<String, Resource<?>> byId,
      String account, ResourceKind kind, String id, String what, List<String> violations) {
    Resource<?> resource = byId.get(id);
    if (resource != null && resource.kind() == kind) {
      return;
    }
    if (tx.get(KeyLayout.fence(new ResourceRef(account, kind, id))) != null) {
      return; // a deletion in progress removes it when it completes
    }
    violations.add(what + " names missing " + kind.label() + " " + id);
  }

  private static JsonNode json(byte[] bytes) {
    try {
      return ModelJson.mapper().readTree(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
