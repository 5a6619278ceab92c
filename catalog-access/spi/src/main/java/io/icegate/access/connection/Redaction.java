package io.icegate.access.connection;

import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/** How configuration prints itself: names kept, every value replaced by a marker. */
final class Redaction {

  static final String MARKER = "****";

  private Redaction() {}

  /** {@code {a=****, b=****}} in key order, so that output is stable. */
  static String names(Map<String, String> values) {
    StringJoiner joiner = new StringJoiner(", ", "{", "}");
    new TreeMap<>(values).keySet().forEach(name -> joiner.add(name + "=" + MARKER));
    return joiner.toString();
  }
}
