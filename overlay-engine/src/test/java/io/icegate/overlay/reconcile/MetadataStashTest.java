package io.icegate.overlay.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.access.model.ExternalIdentity;
import io.icegate.access.model.LoadedTable;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.model.TableFormat;
import io.icegate.access.model.UpstreamTable;
import io.icegate.access.model.UpstreamTableMetadata;
import io.icegate.core.model.ResourceKind;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What discovery keeps for capture: only tables whose location moved since their capture, only
 * within the byte budget, handed over once and only for the location capture asks for; metadata
 * is not even rendered for a table capture will not need.
 */
class MetadataStashTest {
  private final AtomicInteger rendered = new AtomicInteger();

  private DesiredRelation relation(String name, String id, String location) {
    return new DesiredRelation(ResourceKind.TABLE, List.of("ns"), name, id, true, "ICEBERG",
        location, new byte[0], "d");
  }

  private LoadedTable loaded(String name, String id, String location, String json) {
    UpstreamTable table = new UpstreamTable(NamespacePath.of("ns"), name, TableFormat.ICEBERG,
        ExternalIdentity.stable(id), location, "s3://b/" + name, "{}", Map.of());
    return new LoadedTable(table, () -> {
      rendered.incrementAndGet();
      return new UpstreamTableMetadata(location, json);
    });
  }

  @Test
  void keepsWhatCaptureWillNeedWithinTheBudgetAndHandsItOverOnce() {
    String same = UUID.randomUUID().toString();
    String moved = UUID.randomUUID().toString();
    String fresh = UUID.randomUUID().toString();
    String big = UUID.randomUUID().toString();
    MetadataStash stash = new MetadataStash(Map.of(same, "s3://m/same.json",
        moved, "s3://m/old.json"), 10);

    stash.offer(relation("same", same, "s3://m/same.json"),
        loaded("same", same, "s3://m/same.json", "{\"a\":1}"));
    assertThat(rendered).as("an unchanged table's metadata is never rendered").hasValue(0);
    stash.offer(relation("moved", moved, "s3://m/new.json"),
        loaded("moved", moved, "s3://m/new.json", "{\"b\":2}"));
    stash.offer(relation("big", big, "s3://m/big.json"),
        loaded("big", big, "s3://m/big.json", "{\"c\":\"past the budget\"}"));
    assertThat(stash.overBudget()).isEqualTo(1);
    stash.offer(relation("fresh", fresh, "s3://m/fresh.json"),
        loaded("fresh", fresh, "s3://m/fresh.json", "{}"));
    assertThat(stash.heldBytes()).isEqualTo(9);

    assertThat(stash.take(List.of("ns"), "same", "s3://m/same.json")).isEmpty();
    assertThat(stash.take(List.of("ns"), "big", "s3://m/big.json")).isEmpty();
    assertThat(stash.take(List.of("ns"), "fresh", "s3://m/other.json"))
        .as("kept for another location: capture loads it").isEmpty();
    assertThat(stash.take(List.of("ns"), "moved", "s3://m/new.json"))
        .hasValueSatisfying(json -> assertThat(new String(json, StandardCharsets.UTF_8))
            .isEqualTo("{\"b\":2}"));
    assertThat(stash.take(List.of("ns"), "moved", "s3://m/new.json")).isEmpty();
    assertThat(stash.heldBytes()).isZero();
  }

  @Test
  void peekLeavesTheMetadataForARetriedTransactionAndTellsWhetherItHasASnapshot() {
    String a = UUID.randomUUID().toString();
    String b = UUID.randomUUID().toString();
    String c = UUID.randomUUID().toString();
    MetadataStash stash = new MetadataStash(Map.of(), 1000);
    stash.offer(relation("a", a, "s3://m/a.json"), loaded("a", a, "s3://m/a.json",
        "{\"format-version\":2,\"properties\":{\"current-snapshot-id\":\"7\"},"
            + "\"current-snapshot-id\":-1,\"snapshots\":[]}"));
    stash.offer(relation("b", b, "s3://m/b.json"), loaded("b", b, "s3://m/b.json",
        "{\"snapshots\":[{\"snapshot-id\":5}],\"current-snapshot-id\":5}"));
    stash.offer(relation("c", c, "s3://m/c.json"), loaded("c", c, "s3://m/c.json", "not json"));

    assertThat(stash.peek(List.of("ns"), "a", "s3://m/a.json"))
        .hasValueSatisfying(kept -> assertThat(kept.snapshotless()).isTrue());
    assertThat(stash.peek(List.of("ns"), "a", "s3://m/a.json")).as("still kept").isPresent();
    assertThat(stash.peek(List.of("ns"), "a", "s3://m/other.json")).isEmpty();
    assertThat(stash.peek(List.of("ns"), "b", "s3://m/b.json"))
        .hasValueSatisfying(kept -> assertThat(kept.snapshotless()).isFalse());
    assertThat(stash.peek(List.of("ns"), "c", "s3://m/c.json"))
        .as("metadata that is not a JSON object is not kept").isEmpty();
    stash.forget(List.of("ns"), "a");
    assertThat(stash.peek(List.of("ns"), "a", "s3://m/a.json")).isEmpty();
    stash.forget(List.of("ns"), "b");
    assertThat(stash.heldBytes()).isZero();
  }

  @Test
  void aMissingOrNullCurrentSnapshotIdMeansNoSnapshot() throws Exception {
    assertThat(MetadataStash.snapshotless(
        "{\"format-version\":2}".getBytes(StandardCharsets.UTF_8))).isTrue();
    assertThat(MetadataStash.snapshotless(
        "{\"current-snapshot-id\":null}".getBytes(StandardCharsets.UTF_8))).isTrue();
    assertThat(MetadataStash.snapshotless(
        "{\"current-snapshot-id\":0}".getBytes(StandardCharsets.UTF_8))).isFalse();
  }
}
