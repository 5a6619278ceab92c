package io.icegate.gateway.fixturestore;

import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.KvStore;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Every key and value of a store, for "the stored bytes did not change" checks, with the
 * difference between two dumps rendered readably (keys decoded with the tuple layer, JSON values
 * as text). Keys are held as lowercase hex, whose string order is the store's unsigned byte order.
 */
final class StoreDump {
  private static final HexFormat HEX = HexFormat.of();

  private final SortedMap<String, byte[]> entries;
  private final List<String> schema;

  private StoreDump(SortedMap<String, byte[]> entries, List<String> schema) {
    this.entries = entries;
    this.schema = schema;
  }

  /**
   * The store in a SQLite file, read with plain SQL rather than through icegate's driver (so an
   * opening that migrated the file could not hide it), with the file's SQL schema.
   */
  static StoreDump ofSqliteFile(Path file) throws SQLException {
    SortedMap<String, byte[]> entries = new TreeMap<>();
    List<String> schema = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement()) {
      try (ResultSet rows = s.executeQuery("SELECT k, v FROM kv ORDER BY k")) {
        while (rows.next()) {
          entries.put(HEX.formatHex(rows.getBytes(1)), rows.getBytes(2));
        }
      }
      try (ResultSet rows = s.executeQuery(
          "SELECT type, name, sql FROM sqlite_master ORDER BY type, name")) {
        while (rows.next()) {
          schema.add(rows.getString(1) + " " + rows.getString(2) + ": " + rows.getString(3));
        }
      }
    }
    return new StoreDump(entries, List.copyOf(schema));
  }

  /** The store's content through its KvStore interface (one consistent read). */
  static StoreDump of(KvStore store) {
    SortedMap<String, byte[]> entries = new TreeMap<>();
    store.read(tx -> {
      entries.clear(); // a retried read starts over
      for (KeyValue kv : tx.getRange(new byte[] {0x00}, new byte[] {(byte) 0xff})) {
        entries.put(HEX.formatHex(kv.key()), kv.value());
      }
      return null;
    });
    return new StoreDump(entries, null);
  }

  int size() {
    return entries.size();
  }

  long bytes() {
    return entries.entrySet().stream()
        .mapToLong(e -> e.getKey().length() / 2 + e.getValue().length).sum();
  }

  /** The SQL schema of a file dump ({@code null} for a dump through the interface). */
  List<String> schema() {
    return schema;
  }

  /** Every key (hex), in the store's order. */
  Set<String> keys() {
    return java.util.Collections.unmodifiableSet(entries.keySet());
  }

  /** The value under {@code key} (hex), or null. */
  byte[] value(String key) {
    return entries.get(key);
  }

  /** Keys (hex) added, removed or changed from this dump to {@code after}. */
  Set<String> changedKeys(StoreDump after) {
    Set<String> out = new TreeSet<>();
    Set<String> all = new TreeSet<>(entries.keySet());
    all.addAll(after.entries.keySet());
    for (String key : all) {
      if (!Arrays.equals(entries.get(key), after.entries.get(key))) {
        out.add(key);
      }
    }
    return out;
  }

  /** Whether the keys and values equal {@code other}'s (the schema is not compared). */
  boolean sameEntries(StoreDump other) {
    return changedKeys(other).isEmpty();
  }

  /** One line per changed key: {@code + key = value}, {@code - key}, {@code ~ key: a -> b}. */
  List<String> differences(StoreDump after) {
    List<String> out = new ArrayList<>();
    for (String key : changedKeys(after)) {
      byte[] was = entries.get(key);
      byte[] now = after.entries.get(key);
      String name = describeKey(key);
      if (was == null) {
        out.add("+ " + name + " = " + describeValue(now));
      } else if (now == null) {
        out.add("- " + name + " (was " + describeValue(was) + ")");
      } else {
        out.add("~ " + name + ": " + describeValue(was) + " -> " + describeValue(now));
      }
    }
    return out;
  }

  /** Number of keys per subspace (the key's first tuple element), for reports. */
  Map<String, Integer> countsBySubspace() {
    Map<String, Integer> out = new TreeMap<>();
    for (String key : entries.keySet()) {
      String subspace;
      try {
        subspace = String.valueOf(Tuple.fromBytes(HEX.parseHex(key)).get(0));
      } catch (RuntimeException e) {
        subspace = "?";
      }
      out.merge(subspace, 1, Integer::sum);
    }
    return out;
  }

  /** A key (hex) as its tuple, or as hex when it is not one. */
  static String describeKey(String key) {
    try {
      return Tuple.fromBytes(HEX.parseHex(key)).toString();
    } catch (RuntimeException e) {
      return "0x" + key;
    }
  }

  /** A value as text when it is UTF-8 (JSON records), else its size and first bytes. */
  static String describeValue(byte[] value) {
    try {
      String text = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(value)).toString();
      if (text.chars().noneMatch(ch -> ch < 0x20 && ch != '\n' && ch != '\t')) {
        return text.length() > 2000 ? text.substring(0, 2000) + "...(" + value.length + " bytes)"
            : text;
      }
    } catch (CharacterCodingException e) {
      // binary: shown below
    }
    return "<" + value.length + " bytes: "
        + HEX.formatHex(Arrays.copyOf(value, Math.min(16, value.length))) + "...>";
  }
}
