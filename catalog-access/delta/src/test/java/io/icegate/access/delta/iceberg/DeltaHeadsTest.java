package io.icegate.access.delta.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A remembered head is used only while the log shows it is still right: never for a table written
 * anew at the path, never across a protocol change (Kernel's full load refuses an unreadable
 * protocol), and what it gives is the head a full load gives. Tables are written by Kernel's own
 * writer on local disk and read through its default engine, log listings counted ({@link
 * CountedEngine}); the s3proxy path is in {@code DeltaLogTest}.
 */
class DeltaHeadsTest extends LocalLakeTest {

  CountedEngine engine;
  DeltaHeads heads;

  @BeforeEach
  void setUp() {
    engine = new CountedEngine(delta.engine());
    heads = new DeltaHeads();
  }

  @Test
  void aRememberedHeadFollowsOneCommitWithoutListingTheLog() {
    String path = table("one");
    assertThat(heads.since(engine, path)).isEmpty(); // nothing remembered
    heads.remember(engine, delta.location("one"), delta.snapshot("one"));
    lakes.append("one", "US", 2);
    engine.reset();

    DeltaHeads.Head head = heads.since(engine, path).orElseThrow();
    assertThat(engine.logListings()).isZero();
    assertThat(head).isEqualTo(fullHead("one"));
    assertThat(heads.since(engine, path)).contains(head); // unchanged since
  }

  @Test
  void aTableWrittenAnewIsNeverTakenForTheRememberedOne() {
    String path = table("anew");
    heads.remember(engine, delta.location("anew"), delta.snapshot("anew"));
    RecreatedTableTest.delete(lake.resolve("anew"));
    delta.create("anew", DeltaVersionCaptureTest.ORDERS, List.of("region"), Map.of());
    lakes.append("anew", "EU", 1);
    lakes.append("anew", "US", 2);
    // the new table's commit files of the remembered version may carry the same second: dated
    // later, as a table written anew later is
    RecreatedTableTest.dateLogLater(lake.resolve("anew"));

    assertThat(heads.since(engine, path)).isEmpty();
  }

  @Test
  void aProtocolChangeIsLeftToAFullLoad() {
    String path = table("protocol");
    heads.remember(engine, delta.location("protocol"), delta.snapshot("protocol"));
    delta.changeProperties("protocol", Map.of("delta.enableDeletionVectors", "true"));
    assertThat(heads.since(engine, path)).isEmpty();
  }

  @Test
  void theLeastRecentlyUsedTablesAreForgottenPastTheBound() {
    DeltaHeads two = new DeltaHeads(2);
    for (String table : List.of("a", "b", "c")) {
      table(table);
      two.remember(engine, delta.location(table), delta.snapshot(table));
    }
    assertThat(two.size()).isEqualTo(2);
    assertThat(two.since(engine, delta.location("a"))).isEmpty();
    assertThat(two.since(engine, delta.location("c"))).isPresent();
    assertThatThrownBy(() -> new DeltaHeads(0)).isInstanceOf(IllegalArgumentException.class);
  }

  // --- helpers ---
}
