package io.icegate.core.model;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * HTTP entity tags of resources: {@code "<id>/<generation>"} (quoted). The id is part of the tag so
 * that an ETag of one resource never satisfies {@code If-Match} on another.
 */
public final class Etags {
  private Etags() {}

  /** The ETag of generation {@code generation} of resource {@code id}. */
  public static String of(String id, long generation) {
    return "\"" + id + "/" + generation + "\"";
  }

  /**
   * The generations of resource {@code id} that an {@code If-Match} list names (RFC 9110 13.1.1:
   * {@code "a", "b"} succeeds when any tag matches). Tags of other resources, weak tags and
   * malformed ones name nothing; a malformed list names nothing at all (the caller answers 412).
   */
  public static Set<Long> generationsOf(String ifMatch, String id) {
    Set<Long> generations = new TreeSet<>();
    for (String tag : tags(ifMatch)) {
      generationOf(tag, id).ifPresent(generations::add);
    }
    return generations;
  }

  /**
   * Whether {@code ifMatch} is a well-formed list of entity tags (RFC 9110 8.8.3: each tag in
   * double quotes, optionally {@code W/}-prefixed). A bare {@code abc} or {@code W/abc} is not: the
   * quotes are part of the tag, and a shell often strips them from a header typed on a command
   * line.
   */
  public static boolean isTagList(String ifMatch) {
    return ifMatch != null && !tags(ifMatch).isEmpty();
  }

  /**
   * The entity tags of a list ({@code #entity-tag}: tags separated by commas and optional white
   * space), each with its quotes and any {@code W/} prefix; empty when the list is malformed.
   * Tags are split at their quotes, not at commas, which a tag may contain.
   */
  static List<String> tags(String list) {
    List<String> tags = new ArrayList<>();
    if (list == null) {
      return tags;
    }
    int i = 0;
    int n = list.length();
    while (i < n) {
      char c = list.charAt(i);
      if (c == ',' || c == ' ' || c == '\t') {
        i++;
        continue;
      }
      int start = i;
      if (list.startsWith("W/", i)) {
        i += 2;
      }
      int close = i < n && list.charAt(i) == '"' ? list.indexOf('"', i + 1) : -1;
      if (close < 0) {
        return List.of();
      }
      tags.add(list.substring(start, close + 1));
      i = close + 1;
      if (i < n && list.charAt(i) != ',' && list.charAt(i) != ' ' && list.charAt(i) != '\t') {
        return List.of();
      }
    }
    return tags;
  }

  /**
   * The generation an {@code If-Match} value names for resource {@code id}; empty when the value
   * is malformed or names another resource (the caller then answers 412).
   */
  public static OptionalLong generationOf(String etag, String id) {
    if (etag == null) {
      return OptionalLong.empty();
    }
    // If-Match uses strong comparison (RFC 9110 13.1.1): a weak tag never matches.
    String value = etag.strip();
    String prefix = "\"" + id + "/";
    if (!value.startsWith(prefix) || !value.endsWith("\"") || value.length() <= prefix.length() + 1) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(Long.parseLong(value.substring(prefix.length(), value.length() - 1)));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }
}
