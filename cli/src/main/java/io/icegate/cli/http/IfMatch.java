package io.icegate.cli.http;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code If-Match} value the CLI sends for a {@code --if-match} option. An entity tag's double
 * quotes are part of the tag (RFC 9110 8.8.3), but a shell strips them from an unquoted argument:
 * {@code --if-match "abc/3"} arrives as {@code abc/3} and {@code W/"abc/3"} as {@code W/abc/3},
 * which the server can only refuse (412). Such bare tags are quoted again; a value that is already
 * a list of quoted tags, or {@code *}, is sent as given.
 */
public final class IfMatch {
  private IfMatch() {}

  /** {@code given} with each bare tag of its comma-separated list quoted. */
  public static String quoted(String given) {
    if (given == null || given.strip().equals("*")) {
      return given;
    }
    List<String> tags = new ArrayList<>();
    boolean changed = false;
    for (String part : given.split(",", -1)) {
      String tag = part.strip();
      String fixed = quotedTag(tag);
      changed |= !fixed.equals(tag);
      tags.add(fixed);
    }
    return changed ? String.join(", ", tags) : given;
  }

  private static String quotedTag(String tag) {
    if (tag.isEmpty() || tag.startsWith("\"") || tag.startsWith("W/\"") || tag.contains("\"")) {
      return tag; // quoted already, or malformed in a way quoting would not mend: the server says
    }
    return tag.startsWith("W/") ? "W/\"" + tag.substring(2) + "\"" : "\"" + tag + "\"";
  }
}
