package io.icegate.core.store;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import java.util.ArrayList;
import java.util.List;

/**
 * The keys and values of {@link KvStoreConformanceTest}: every key lives under {@link #SUITE}, a
 * subspace of {@link KeySubspace#SCRATCH} that the suite clears before each test, so the suite
 * also runs on a shared FoundationDB cluster.
 */
final class ConformanceKeys {

  /** Where the suite's keys live; cleared before each test. */
  static final Subspace SUITE = KeySubspace.SCRATCH.get(Tuple.from("kv-conformance"));

  private ConformanceKeys() {}

  /** A key under {@link #SUITE}. */
  static byte[] key(Object... elements) {
    return SUITE.pack(Tuple.from(elements));
  }

  static byte[] value(String text) {
    return text.getBytes(UTF_8);
  }

  /** The first key of {@link #SUITE}. */
  static byte[] begin() {
    return SUITE.range().begin;
  }

  /** The end (exclusive) of {@link #SUITE}. */
  static byte[] end() {
    return SUITE.range().end;
  }

  /** The first tuple element of each key, checking that each value is the tuple of its key. */
  static List<Long> numbers(List<KeyValue> pairs) {
    List<Long> out = new ArrayList<>();
    for (KeyValue kv : pairs) {
      out.add(SUITE.unpack(kv.key()).getLong(0));
    }
    return out;
  }
}
