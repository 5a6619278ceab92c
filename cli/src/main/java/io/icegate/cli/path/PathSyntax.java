package io.icegate.cli.path;

import io.icegate.cli.CliException;
import io.icegate.cli.ExitCode;
import java.util.ArrayList;
import java.util.List;

/**
 * The command-line spelling of a namespace path (docs/cli.md "Namespace paths"): segments
 * separated by dots; a segment that contains a dot or a double quote is written in double quotes,
 * with a double quote inside it doubled ({@code sales."q1.2026".raw} is the three segments
 * {@code sales}, {@code q1.2026}, {@code raw}). The admin API takes paths as lists of segments
 * (seed 000 keeps segment boundaries), so the CLI parses here and never sends a dotted string.
 */
public final class PathSyntax {
  private PathSyntax() {}

  /**
   * The segments of {@code text}, in order, never empty.
   *
   * @throws CliException USAGE naming the 1-based character position for an empty path, an empty
   *     segment ({@code a..b}, a leading or trailing dot, {@code ""}), an unterminated quote, or
   *     text after a closing quote that is not a dot
   */
  public static List<String> parse(String text) {
    if (text.isEmpty()) {
      throw failure(text, "is empty");
    }
    List<String> segments = new ArrayList<>();
    int i = 0;
    while (true) {
      StringBuilder segment = new StringBuilder();
      int start = i;
      if (i < text.length() && text.charAt(i) == '"') {
        i++;
        while (true) {
          if (i >= text.length()) {
            throw failure(text, "has an unterminated quote opened at character " + (start + 1));
          }
          char c = text.charAt(i);
          if (c == '"') {
            if (i + 1 < text.length() && text.charAt(i + 1) == '"') {
              segment.append('"');
              i += 2;
              continue;
            }
            i++;
            break;
          }
          segment.append(c);
          i++;
        }
        if (i < text.length() && text.charAt(i) != '.') {
          throw failure(text, "has '" + text.charAt(i) + "' at character " + (i + 1)
              + " after a closing quote (expected a dot or the end)");
        }
      } else {
        while (i < text.length() && text.charAt(i) != '.') {
          if (text.charAt(i) == '"') {
            throw failure(text, "has a quote inside an unquoted segment at character " + (i + 1)
                + " (quote the whole segment)");
          }
          segment.append(text.charAt(i));
          i++;
        }
      }
      if (segment.isEmpty()) {
        throw failure(text, "has an empty segment at character " + (start + 1));
      }
      segments.add(segment.toString());
      if (i >= text.length()) {
        return List.copyOf(segments);
      }
      i++; // the dot
      if (i >= text.length()) {
        throw failure(text, "has an empty segment at character " + (i + 1) + " (trailing dot)");
      }
    }
  }

  /** {@code segments} in the syntax {@link #parse} reads: quoted only where needed. */
  public static String format(List<String> segments) {
    StringBuilder out = new StringBuilder();
    for (String segment : segments) {
      if (!out.isEmpty()) {
        out.append('.');
      }
      if (segment.isEmpty() || segment.indexOf('.') >= 0 || segment.indexOf('"') >= 0) {
        out.append('"').append(segment.replace("\"", "\"\"")).append('"');
      } else {
        out.append(segment);
      }
    }
    return out.toString();
  }

  private static CliException failure(String text, String problem) {
    return new CliException(ExitCode.USAGE, "namespace path '" + text + "' " + problem);
  }
}
