package io.icegate.core.model;

import io.icegate.core.error.IcegateException;
import java.util.List;
import java.util.Map;

/**
 * Validation of names, ids, paths and property maps, shared by the model records' compact
 * constructors (and by other labels a person gives, such as a token's name). Limits keep every
 * key far below FoundationDB's 10 kB key limit.
 */
public final class Names {
  /** Longest display name or path segment, in UTF-16 chars. */
  static final int MAX_NAME_LENGTH = 255;
  /** Deepest namespace path. */
  static final int MAX_PATH_DEPTH = 16;

  private Names() {}

  public static String requireName(String name, String what) {
    if (name == null || name.isEmpty()) {
      throw IcegateException.invalidArgument(what + " must not be empty");
    }
    if (name.length() > MAX_NAME_LENGTH) {
      throw IcegateException.invalidArgument(
          what + " is longer than " + MAX_NAME_LENGTH + " characters");
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (Character.isISOControl(c)) {
        // Control characters (including Iceberg's 0x1F path separator) would make names ambiguous
        // in URLs and logs.
        throw IcegateException.invalidArgument(what + " must not contain control characters");
      }
      if (Character.isHighSurrogate(c) && i + 1 < name.length()
          && Character.isLowSurrogate(name.charAt(i + 1))) {
        i++; // a pair: one character beyond the BMP
      } else if (Character.isSurrogate(c)) {
        // a JSON escape decodes to one; it has no UTF-8 form, so the name's key cannot be encoded
        throw IcegateException.invalidArgument(
            what + " is not valid Unicode: a lone surrogate at index " + i);
      }
    }
    return name;
  }

  static String requireId(String id, String what) {
    if (id == null || id.isEmpty() || id.length() > 64) {
      throw IcegateException.invalidArgument(what + " must be a resource id");
    }
    return id;
  }

  static List<String> requirePath(List<String> path, boolean mayBeEmpty) {
    if (path == null || (!mayBeEmpty && path.isEmpty())) {
      throw IcegateException.invalidArgument("namespace path must not be empty");
    }
    if (path.size() > MAX_PATH_DEPTH) {
      throw IcegateException.invalidArgument(
          "namespace path is deeper than " + MAX_PATH_DEPTH + " levels");
    }
    for (String segment : path) {
      requireName(segment, "namespace segment");
    }
    return List.copyOf(path);
  }

  static Map<String, String> copyProperties(Map<String, String> properties) {
    if (properties == null) {
      return Map.of();
    }
    for (Map.Entry<String, String> e : properties.entrySet()) {
      if (e.getKey() == null || e.getValue() == null) {
        throw IcegateException.invalidArgument("properties must not hold null keys or values");
      }
    }
    return Map.copyOf(properties);
  }

  static String requireText(String value, String what) {
    if (value == null || value.isBlank()) {
      throw IcegateException.invalidArgument(what + " must not be empty");
    }
    return value;
  }

  /**
   * The checks of a Table's or View's compact constructor ({@link Relation}); the namespace path,
   * copied.
   */
  static List<String> requireRelation(ResourceKind kind, String catalogId, List<String> namespace,
      String name, String metadataLocation, Provenance provenance) {
    requireId(catalogId, "catalogId");
    List<String> path = requirePath(namespace, false);
    requireName(name, kind.label() + " name");
    if (provenance == null || metadataLocation != null) {
      // A managed relation may have no metadata file of its own: it is served from its definition.
      requireText(metadataLocation, "metadata location");
    }
    return path;
  }
}
