package io.icegate.core.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RangeSetTest {

  @Test
  void overlappingAndTouchingRangesMerge() {
    RangeSet set = new RangeSet();
    set.add(b(10), b(20));
    set.add(b(30), b(40));
    set.add(b(20), b(25)); // touches [10, 20)
    set.add(b(24), b(31)); // bridges to [30, 40)
    set.add(b(50), b(50)); // empty
    set.add(b(60), b(55)); // inverted
    assertThat(set.ranges()).hasSize(1);
    assertThat(set.ranges().get(0).begin()).isEqualTo(b(10));
    assertThat(set.ranges().get(0).end()).isEqualTo(b(40));
  }

  @Test
  void containsIsBeginInclusiveEndExclusive() {
    RangeSet set = new RangeSet();
    set.add(b(10), b(20));
    assertThat(set.contains(b(10))).isTrue();
    assertThat(set.contains(b(19))).isTrue();
    assertThat(set.contains(b(20))).isFalse();
    assertThat(set.contains(b(9))).isFalse();
  }

  @Test
  void intersectsNeedsASharedKey() {
    RangeSet set = new RangeSet();
    set.add(b(10), b(20));
    set.add(b(40), b(50));
    assertThat(set.intersects(b(20), b(40))).as("touching both ends").isFalse();
    assertThat(set.intersects(b(0), b(10))).isFalse();
    assertThat(set.intersects(b(19), b(21))).isTrue();
    assertThat(set.intersects(b(0), b(0xff))).isTrue();
    assertThat(set.intersects(b(45), b(46))).isTrue();
    assertThat(set.intersects(b(30), b(30))).isFalse();
  }

  @Test
  void singleKeysUseUnsignedOrder() {
    RangeSet set = new RangeSet();
    set.addKey(new byte[] {(byte) 0x80});
    assertThat(set.contains(new byte[] {(byte) 0x80})).isTrue();
    assertThat(set.contains(new byte[] {(byte) 0x80, 0})).isFalse();
    assertThat(set.intersects(new byte[] {0x7f}, new byte[] {(byte) 0x81})).isTrue();
    assertThat(set.intersects(new byte[] {(byte) 0x81}, new byte[] {(byte) 0xff})).isFalse();
  }

  private static byte[] b(int first) {
    return new byte[] {(byte) first};
  }
}
