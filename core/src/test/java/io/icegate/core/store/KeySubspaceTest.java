package io.icegate.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Tags are part of every stored key: a renumbered or reused tag makes existing stores unreadable.
 * This pins each one, and a few keys built inside them, byte for byte.
 */
class KeySubspaceTest {

  @Test
  void everyTagIsPinned() {
    Map<KeySubspace, Integer> pinned = new LinkedHashMap<>();
    pinned.put(KeySubspace.META, 0);
    pinned.put(KeySubspace.RESOURCES, 1);
    pinned.put(KeySubspace.NAME_INDEX, 2);
    pinned.put(KeySubspace.RECEIPTS, 3);
    pinned.put(KeySubspace.FENCES, 4);
    pinned.put(KeySubspace.COUNTERS, 5);
    pinned.put(KeySubspace.CLAIMS, 6);
    pinned.put(KeySubspace.CREDENTIALS, 7);
    pinned.put(KeySubspace.BLOBS, 8);
    pinned.put(KeySubspace.TOKENS, 9);
    pinned.put(KeySubspace.CREDENTIAL_CANDIDATES, 10);
    pinned.put(KeySubspace.MANAGED, 11);
    pinned.put(KeySubspace.DEFINITIONS, 12);
    pinned.put(KeySubspace.RUNS, 13);
    pinned.put(KeySubspace.OPERATIONS, 14);
    pinned.put(KeySubspace.CAPTURES, 15);
    pinned.put(KeySubspace.BLOB_MARKERS, 16);
    pinned.put(KeySubspace.VALIDATIONS, 17);
    pinned.put(KeySubspace.HELD, 18);
    pinned.put(KeySubspace.JOBS, 19);
    pinned.put(KeySubspace.SCHEDULES, 20);
    pinned.put(KeySubspace.GENERATED, 21);
    pinned.put(KeySubspace.GENERATED_DELETED, 22);
    pinned.put(KeySubspace.WAREHOUSE_CLAIMS, 23);
    pinned.put(KeySubspace.SCRATCH, 127);

    // a new subspace is pinned here when it is added
    assertThat(pinned.keySet()).containsExactlyInAnyOrder(KeySubspace.values());
    pinned.forEach((subspace, tag) -> {
      assertThat(subspace.tag()).as(subspace.name()).isEqualTo(tag);
      assertThat(subspace.subspace().getKey()).as(subspace.name())
          .isEqualTo(Tuple.from(tag).pack());
    });
  }

  @Test
  void tagsAreUnique() {
    assertThat(Arrays.stream(KeySubspace.values()).map(KeySubspace::tag))
        .doesNotHaveDuplicates();
  }

  @Test
  void keysKeepTheirBytes() {
    HexFormat hex = HexFormat.of();
    ResourceRef table = new ResourceRef("acct", ResourceKind.TABLE, "t1");
    assertThat(hex.formatHex(KeyLayout.resource(table)))
        .isEqualTo(hex.formatHex(Tuple.from(1, "acct", ResourceKind.TABLE.tag(), "t1").pack()));
    assertThat(KeyLayout.definitionChunk("acct", ResourceKind.TABLE, "t1", 3))
        .isEqualTo(Tuple.from(12, "acct", ResourceKind.TABLE.tag(), "t1", 3).pack());
    assertThat(KeyLayout.blobChunk("d1", 2)).isEqualTo(Tuple.from(8, "d1", 2).pack());
    assertThat(KeyLayout.validationError("acct", "t1", 5, 7))
        .isEqualTo(Tuple.from(17, "acct", "t1", "errors", 5, 7).pack());
    assertThat(KeyLayout.validationErrorsBelow("acct", "t1", 5).end)
        .isEqualTo(Tuple.from(17, "acct", "t1", "errors", 5).pack());
    assertThat(KeyLayout.schedule("acct", "i1")).isEqualTo(Tuple.from(20, "acct", "i1").pack());
    assertThat(KeyLayout.overlaySchedule("acct", "i1", "o1"))
        .isEqualTo(Tuple.from(20, "acct", "i1", "o1").pack());
    assertThat(KeyLayout.credentialCandidates("acct", "owner").getKey())
        .isEqualTo(Tuple.from(10, "acct", "owner").pack());
  }
}
