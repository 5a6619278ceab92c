package io.icegate.overlay.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.ResourceKind;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The components of path handovers: order, splitting of long chains, the cycle limit. */
class PathHandoversTest {

  private static DesiredRelation relation(int i) {
    return new DesiredRelation(ResourceKind.TABLE, List.of("ns"), "t" + i, "id-" + i, true,
        "ICEBERG", null, new byte[0], "0".repeat(64));
  }

  private static String key(int i) {
    return relation(i).identityKey();
  }

  @Test
  void aChainIsOrderedTailFirstAndAStaleSinkIsItsOwnTail() {
    PathHandovers h = new PathHandovers();
    h.add(relation(1), key(2), 10); // 1 wants 2's path
    h.add(relation(2), key(3), 10); // 2 wants 3's path
    h.addHolder(relation(3), 10); // 3 moves to a free path
    h.add(relation(9), null, 10); // 9 replaces a stale holder
    List<PathHandovers.Component> components = h.components();
    assertThat(components).hasSize(2);
    assertThat(components.get(0).members()).extracting(DesiredRelation::name)
        .containsExactly("t3", "t2", "t1");
    assertThat(components.get(0).cycle()).isFalse();
    assertThat(components.get(1).members()).extracting(DesiredRelation::name)
        .containsExactly("t9");
  }

  @Test
  void aCycleIsOneComponent() {
    PathHandovers h = new PathHandovers();
    h.add(relation(1), key(2), 10);
    h.add(relation(2), key(3), 10);
    h.add(relation(3), key(1), 10);
    List<PathHandovers.Component> components = h.components();
    assertThat(components).singleElement().satisfies(c -> {
      assertThat(c.cycle()).isTrue();
      assertThat(c.members()).hasSize(3);
    });
  }

  @Test
  void aChainOverTheLimitIsSplitTailSegmentFirst() {
    int n = PathHandovers.MAX_RELATIONS * 2 + 5;
    PathHandovers h = new PathHandovers();
    for (int i = 0; i < n - 1; i++) {
      h.add(relation(i), key(i + 1), 10);
    }
    h.addHolder(relation(n - 1), 10);
    List<PathHandovers.Component> components = h.components();
    assertThat(components).hasSize(3);
    assertThat(components.get(0).members()).hasSize(PathHandovers.MAX_RELATIONS);
    assertThat(components.get(0).members().get(0).name()).isEqualTo("t" + (n - 1));
    assertThat(components.get(2).members().get(4).name()).isEqualTo("t0");
  }

  @Test
  void aCycleOverTheLimitFailsNamingTheLimit() {
    int n = PathHandovers.MAX_RELATIONS + 1;
    PathHandovers h = new PathHandovers();
    for (int i = 0; i < n; i++) {
      h.add(relation(i), key((i + 1) % n), 10);
    }
    assertThatThrownBy(h::components).isInstanceOfSatisfying(IcegateException.class, e -> {
      assertThat(e.code()).isEqualTo(ErrorCode.RECONCILE_HANDOVER_TOO_LARGE);
      assertThat(e.getMessage()).contains("1001 path handovers", "limit of 1000 relations");
    });
  }

  @Test
  void aCycleOverTheByteLimitFailsToo() {
    PathHandovers h = new PathHandovers();
    h.add(relation(1), key(2), PathHandovers.MAX_BYTES);
    h.add(relation(2), key(1), 1);
    assertThatThrownBy(h::components).isInstanceOfSatisfying(IcegateException.class,
        e -> assertThat(e.code()).isEqualTo(ErrorCode.RECONCILE_HANDOVER_TOO_LARGE));
  }
}
