package io.icegate.storage.fdb;

import static org.assertj.core.api.Assertions.assertThat;

import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeySubspace;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The one key-encoding fact this driver relies on: FoundationDB orders keys as unsigned bytes, and
 * tuple-layer keys from {@link KeyLayout} sort in that order exactly as their tuples do. So the
 * driver writes core's keys as given, and range reads return the same order as on SQLite and the
 * in-memory engine. Store-level key order is covered by core's conformance suite.
 */
class TupleKeyOrderTest {

  @Test
  void packedTupleOrderIsUnsignedByteOrder() {
    Random random = new Random(20240611L);
    List<Tuple> tuples = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      tuples.add(randomTuple(random));
    }
    for (Tuple a : tuples) {
      for (Tuple b : tuples) {
        int byTuple = Integer.signum(a.compareTo(b));
        int byBytes =
            Integer.signum(Arrays.compareUnsigned(
                KeySubspace.RESOURCES.pack(a), KeySubspace.RESOURCES.pack(b)));
        assertThat(byBytes).as("%s vs %s", a, b).isEqualTo(byTuple);
      }
    }
  }

  @Test
  void aSubspaceRangeBracketsEveryKeyPackedUnderIt() {
    Tuple prefix = Tuple.from("account", "table");
    byte[] begin = KeySubspace.RESOURCES.range(prefix).begin;
    byte[] end = KeySubspace.RESOURCES.range(prefix).end;
    for (Tuple suffix :
        List.of(Tuple.from(""), Tuple.from(Long.MIN_VALUE), Tuple.from(new byte[] {(byte) 0xFF}))) {
      byte[] key = KeySubspace.RESOURCES.pack(prefix.addAll(suffix));
      assertThat(Arrays.compareUnsigned(begin, key)).isNegative();
      assertThat(Arrays.compareUnsigned(key, end)).isNegative();
    }
    // FoundationDB reserves keys from 0xFF for the system: icegate's keys never start there.
    assertThat(end[0] & 0xFF).isLessThan(0xFF);
  }

  private static Tuple randomTuple(Random random) {
    Tuple t = new Tuple();
    int size = 1 + random.nextInt(3);
    for (int i = 0; i < size; i++) {
      switch (random.nextInt(4)) {
        case 0 -> t = t.add(random.nextLong() >> random.nextInt(64));
        case 1 -> t = t.add(randomString(random));
        case 2 -> {
          byte[] bytes = new byte[random.nextInt(4)];
          random.nextBytes(bytes);
          t = t.add(bytes);
        }
        default -> t = t.add(random.nextInt(3) - 1L);
      }
    }
    return t;
  }

  private static String randomString(Random random) {
    String alphabet = "a\u0000Z\u00e9\u4e2d/";
    StringBuilder s = new StringBuilder();
    int length = random.nextInt(4);
    for (int i = 0; i < length; i++) {
      s.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return s.toString();
  }
}
