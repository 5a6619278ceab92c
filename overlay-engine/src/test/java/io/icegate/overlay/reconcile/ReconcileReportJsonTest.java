package io.icegate.overlay.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.icegate.core.model.ModelJson;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The report's JSON is what it was when the report was a record of one component per count: the
 * same members, sorted by name, in the stored form (an operation keeps its report) and back.
 */
class ReconcileReportJsonTest {

  /** Every count kind numbered in declaration order: loaded 0, created 1, ... */
  static ReconcileReport sample() {
    Map<ReconcileCount, Long> counts = new EnumMap<>(ReconcileCount.class);
    for (ReconcileCount kind : ReconcileCount.values()) {
      counts.put(kind, (long) kind.ordinal());
    }
    return new ReconcileReport("ov", 7, ReconcileCounts.of(counts),
        List.of(new ReconcileReport.Held("table", List.of("a", "t"), "NOT_REPRESENTABLE", "m")),
        List.of("w1"), 99);
  }

  /** The bytes of {@link #sample()} before the counts were one typed value (pinned). */
  static final String SAMPLE_JSON =
      "{\"captureFailed\":10,\"captureUnchanged\":9,\"captured\":8,\"created\":1,"
      + "\"durationMillis\":99,\"held\":[{\"code\":\"NOT_REPRESENTABLE\",\"kind\":\"table\","
      + "\"message\":\"m\",\"path\":[\"a\",\"t\"]}],\"namespacesClaimed\":5,"
      + "\"namespacesCreated\":6,\"namespacesPruned\":7,\"overlayId\":\"ov\",\"retired\":4,"
      + "\"runGeneration\":7,\"unchanged\":3,\"updated\":2,\"validated\":11,"
      + "\"validationFailed\":12,\"warnings\":[\"w1\"]}";

  @Test
  void storedFormIsUnchangedAndReadsBack() throws Exception {
    String json = ModelJson.mapper().writeValueAsString(sample());
    assertThat(json).isEqualTo(SAMPLE_JSON);
    ReconcileReport back = ModelJson.mapper().readValue(json, ReconcileReport.class);
    assertThat(back.counts().asMap()).containsEntry("loaded", 0L).containsEntry("created", 1L)
        .containsEntry("validationFailed", 12L);
    assertThat(back).isEqualTo(sample());
  }

  @Test
  void aReportStoredBeforeHeldExistedReadsWithNoHeldObjects() throws Exception {
    ObjectNode old = ModelJson.mapper().valueToTree(sample());
    old.remove("held");
    ReconcileReport back = ModelJson.mapper().treeToValue(old, ReconcileReport.class);
    assertThat(back.held()).isEmpty();
    assertThat(back.count(ReconcileCount.CAPTURED)).isEqualTo(8);
  }

  @Test
  void countsKeepEveryKindByItsMemberName() {
    ReconcileProgress progress = new ReconcileProgress();
    progress.add(ReconcileCount.LOADED, 3);
    progress.add(ReconcileCount.NAMESPACES_CLAIMED, 2);
    progress.add(ReconcileCount.NAMESPACES_CLAIMED, 1);
    Map<String, Long> members = progress.counts().asMap();
    assertThat(members.keySet()).containsExactly("loaded", "created", "updated", "unchanged",
        "retired", "namespacesClaimed", "namespacesCreated", "namespacesPruned", "captured",
        "captureUnchanged", "captureFailed", "validated", "validationFailed");
    assertThat(members).containsEntry("loaded", 3L).containsEntry("namespacesClaimed", 3L);
    assertThat(ReconcileCounts.fromMembers(members)).isEqualTo(progress.counts());
  }
}
