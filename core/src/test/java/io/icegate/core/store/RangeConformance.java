package io.icegate.core.store;

import static io.icegate.core.store.ConformanceKeys.SUITE;
import static io.icegate.core.store.ConformanceKeys.begin;
import static io.icegate.core.store.ConformanceKeys.end;
import static io.icegate.core.store.ConformanceKeys.key;
import static io.icegate.core.store.ConformanceKeys.numbers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.store.ReadTransaction.Direction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Conformance of key order and ranges: keys sort as FoundationDB's tuple layer packs them, range
 * reads include their begin and exclude their end, limits and reverse reads take pairs from the
 * right end, and range clears cut the same interval.
 */
interface RangeConformance extends ConformanceFixture {

  @Test
  default void emptyStoreReadsNothing() {
    store()
        .read(
            tx -> {
              assertThat(tx.get(key("missing"))).isNull();
              assertThat(tx.getRange(begin(), end())).isEmpty();
              assertThat(tx.getRange(begin(), end(), 5, Direction.REVERSE)).isEmpty();
              assertThat(tx.snapshot().getRange(begin(), end())).isEmpty();
              return null;
            });
  }

  @Test
  default void tupleKeysSortInTupleLayerOrder() {
    // The order the FoundationDB tuple layer defines, i.e. unsigned byte order of the packed keys:
    // byte strings, then text (by UTF-8 bytes, not UTF-16 units), then nested tuples, then
    // integers by value; a tuple sorts right after its prefixes.
    List<Tuple> expected =
        List.of(
            Tuple.from((Object) new byte[0]),
            Tuple.from((Object) new byte[] {0}),
            Tuple.from((Object) new byte[] {0, 0}),
            Tuple.from((Object) new byte[] {1}),
            Tuple.from((Object) new byte[] {0x7f}),
            Tuple.from((Object) new byte[] {(byte) 0x80}),
            Tuple.from((Object) new byte[] {(byte) 0xff}),
            Tuple.from(""),
            Tuple.from("A"),
            Tuple.from("a"),
            Tuple.from("a", 1L),
            Tuple.from("ab"),
            Tuple.from("\u00e9"),
            Tuple.from("\u4e2d"),
            Tuple.from("\ufffd"),
            Tuple.from("\ud83d\ude00"),
            Tuple.from(Tuple.from("a")),
            Tuple.from(Tuple.from("a", 1L)),
            Tuple.from(Tuple.from("a", 2L)),
            Tuple.from(Tuple.from("b")),
            Tuple.from(Long.MIN_VALUE),
            Tuple.from(-1_000_000_000_000L),
            Tuple.from(-65_536L),
            Tuple.from(-256L),
            Tuple.from(-255L),
            Tuple.from(-1L),
            Tuple.from(0L),
            Tuple.from(1L),
            Tuple.from(1L, "a"),
            Tuple.from(1L, "b"),
            Tuple.from(255L),
            Tuple.from(256L),
            Tuple.from(65_536L),
            Tuple.from(1_000_000_000_000L),
            Tuple.from(Long.MAX_VALUE));
    List<String> expectedKeys = expected.stream().map(t -> hex(SUITE.pack(t))).toList();
    assertThat(expectedKeys)
        .as("the expected order is unsigned byte order of the packed keys")
        .isSortedAccordingTo((a, b) -> Arrays.compareUnsigned(unhex(a), unhex(b)));

    List<Integer> insertOrder = new ArrayList<>();
    for (int i = 0; i < expected.size(); i++) {
      insertOrder.add(i);
    }
    Collections.shuffle(insertOrder, new Random(42));
    store()
        .run(
            tx -> {
              for (int i : insertOrder) {
                tx.set(SUITE.pack(expected.get(i)), Tuple.from((long) i).pack());
              }
              return null;
            });

    List<KeyValue> forward = range(begin(), end());
    assertThat(forward).extracting(kv -> hex(kv.key())).containsExactlyElementsOf(expectedKeys);
    for (int i = 0; i < forward.size(); i++) {
      assertThat(Tuple.fromBytes(forward.get(i).value()).getLong(0)).isEqualTo(i);
    }
    List<String> reversed = new ArrayList<>(expectedKeys);
    Collections.reverse(reversed);
    assertThat(range(begin(), end(), 0, Direction.REVERSE))
        .extracting(kv -> hex(kv.key()))
        .containsExactlyElementsOf(reversed);
  }

  @Test
  default void rangeIncludesBeginAndExcludesEnd() {
    writeNumbers(0, 10);
    assertThat(numbers(range(key(3L), key(7L)))).containsExactly(3L, 4L, 5L, 6L);
    // Bounds between stored keys.
    assertThat(numbers(range(key(2L, "x"), key(5L, "x")))).containsExactly(3L, 4L, 5L);
    assertThat(range(key(4L), key(4L))).isEmpty();
    assertThat(numbers(range(key(7L), end()))).containsExactly(7L, 8L, 9L);
  }

  @Test
  default void rangeLimitReturnsFirstPairs() {
    writeNumbers(0, 10);
    assertThat(numbers(range(begin(), end(), 3, Direction.FORWARD))).containsExactly(0L, 1L, 2L);
    assertThat(numbers(range(key(5L), end(), 2, Direction.FORWARD))).containsExactly(5L, 6L);
    assertThat(range(begin(), end(), 0, Direction.FORWARD)).hasSize(10);
    assertThat(range(begin(), end(), 50, Direction.FORWARD)).hasSize(10);
    assertThatThrownBy(
            () -> store().read(tx -> tx.getRange(begin(), end(), -1, Direction.FORWARD)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  default void reverseRangeReturnsLastPairsHighestFirst() {
    writeNumbers(0, 10);
    assertThat(numbers(range(begin(), end(), 3, Direction.REVERSE))).containsExactly(9L, 8L, 7L);
    assertThat(numbers(range(key(3L), key(7L), 2, Direction.REVERSE))).containsExactly(6L, 5L);
    assertThat(numbers(range(key(3L), key(7L), 0, Direction.REVERSE)))
        .containsExactly(6L, 5L, 4L, 3L);
  }

  @Test
  default void clearRangeRemovesBeginInclusiveEndExclusive() {
    writeNumbers(0, 10);
    store()
        .run(
            tx -> {
              tx.clearRange(key(3L), key(7L));
              tx.clearRange(key(8L), key(8L));
              return null;
            });
    assertThat(numbers(range(begin(), end()))).containsExactly(0L, 1L, 2L, 7L, 8L, 9L);
    assertThatThrownBy(
            () ->
                store()
                    .run(
                        tx -> {
                          tx.clearRange(key(9L), key(1L));
                          return null;
                        }))
        .isInstanceOf(IllegalArgumentException.class);
    store()
        .run(
            tx -> {
              tx.clearRange(begin(), end());
              return null;
            });
    assertThat(range(begin(), end())).isEmpty();
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }

  private static byte[] unhex(String hex) {
    return HexFormat.of().parseHex(hex);
  }
}
