package io.icegate.core.store;

import java.util.Arrays;
import java.util.HexFormat;

/** One key-value pair returned by a range read. Arrays are not copied: treat them as immutable. */
public record KeyValue(byte[] key, byte[] value) {

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyValue other
        && Arrays.equals(key, other.key)
        && Arrays.equals(value, other.value);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(key) + Arrays.hashCode(value);
  }

  /** Shows the key in hex and only the value's length: values may hold encrypted secrets. */
  @Override
  public String toString() {
    return "KeyValue[key=" + HexFormat.of().formatHex(key) + ", value=" + value.length + " bytes]";
  }
}
