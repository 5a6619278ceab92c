package io.icegate.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.overlay.reconcile.ReconcileCount;
import io.icegate.overlay.reconcile.ReconcileCounts;
import io.icegate.overlay.reconcile.ReconcileReport;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The reconcile route's answer is byte for byte what it was when the report was a record of one
 * component per count: the members of the OpenAPI schema ReconcileReport, sorted by name.
 */
class ReconcileReportJsonTest {

  @Test
  void theReportAnswersTheMembersItAlwaysHad() throws Exception {
    Map<ReconcileCount, Long> counts = new EnumMap<>(ReconcileCount.class);
    for (ReconcileCount kind : ReconcileCount.values()) {
      counts.put(kind, (long) kind.ordinal()); // loaded 0 (not answered), created 1, ...
    }
    ReconcileReport report = new ReconcileReport("ov", 7, ReconcileCounts.of(counts),
        List.of(new ReconcileReport.Held("table", List.of("a", "t"), "NOT_REPRESENTABLE", "m")),
        List.of("w1"), 99);

    assertThat(AdminJson.mapper().writeValueAsString(report)).isEqualTo(
        "{\"captureFailed\":10,\"captureUnchanged\":9,\"captured\":8,\"created\":1,"
            + "\"durationMillis\":99,\"held\":[{\"code\":\"NOT_REPRESENTABLE\",\"kind\":\"table\","
            + "\"message\":\"m\",\"path\":[\"a\",\"t\"]}],\"namespacesClaimed\":5,"
            + "\"namespacesCreated\":6,\"namespacesPruned\":7,\"overlayId\":\"ov\",\"retired\":4,"
            + "\"runGeneration\":7,\"unchanged\":3,\"updated\":2,\"validated\":11,"
            + "\"validationFailed\":12,\"warnings\":[\"w1\"]}");
  }
}
