package io.icegate.cli.output;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.cli.command.ResourceKind;
import io.icegate.cli.path.PathSyntax;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Writes results to stdout in the chosen {@link OutputFormat} and notes to stderr. JSON output is
 * the server's body unchanged (pretty-printed), so scripts see the documented admin API shapes.
 */
public final class Printer {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final OutputFormat format;
  private final PrintWriter out;
  private final PrintWriter err;

  public Printer(OutputFormat format, PrintWriter out, PrintWriter err) {
    this.format = format;
    this.out = out;
    this.err = err;
  }

  public OutputFormat format() {
    return format;
  }

  /** One resource: key/value lines (nested members as compact JSON), or its JSON. */
  public void resource(JsonNode body) {
    if (format == OutputFormat.json) {
      json(body);
      return;
    }
    int width = 0;
    for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
      width = Math.max(width, DisplayWidth.of(names.next()));
    }
    for (Iterator<Map.Entry<String, JsonNode>> fields = body.fields(); fields.hasNext(); ) {
      Map.Entry<String, JsonNode> field = fields.next();
      out.println(pad(field.getKey() + ":", width + 2) + text(field.getValue()));
    }
    out.flush();
  }

  /** A list as a table with {@code kind}'s columns, or as {@code json} unchanged. */
  public void list(ResourceKind kind, List<JsonNode> items, JsonNode json) {
    if (format == OutputFormat.json) {
      json(json);
      return;
    }
    List<String[]> rows = new ArrayList<>();
    for (JsonNode item : items) {
      rows.add(kind.columns().stream().map(c -> cell(c, item.at(c.pointer())))
          .toArray(String[]::new));
    }
    table(kind.columns().stream().map(ResourceKind.Column::header).toList(), rows, json);
  }

  /**
   * Rows of cells under {@code headers} (cells already rendered by the caller, e.g. namespace
   * paths in the CLI's path syntax), or {@code json} unchanged.
   */
  public void table(List<String> headers, List<String[]> cells, JsonNode json) {
    if (format == OutputFormat.json) {
      json(json);
      return;
    }
    List<String[]> rows = new ArrayList<>();
    rows.add(headers.toArray(String[]::new));
    rows.addAll(cells);
    int[] widths = new int[rows.get(0).length];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], DisplayWidth.of(row[i]));
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.length; i++) {
        line.append(i + 1 < row.length ? pad(row[i], widths[i] + 2) : row[i]);
      }
      out.println(line.toString().stripTrailing());
    }
    out.flush();
  }

  /** A result line for people (deleted ..., rotated ...); JSON output prints {@code json}. */
  public void done(String message, JsonNode json) {
    if (format == OutputFormat.json) {
      json(json);
    } else {
      out.println(message);
      out.flush();
    }
  }

  /** A note on stderr, in both formats (never mixed into JSON on stdout). */
  public void note(String message) {
    err.println("icegate: " + message);
    err.flush();
  }

  private void json(JsonNode body) {
    try {
      out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(body));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    out.flush();
  }

  private static String text(JsonNode value) {
    if (value == null || value.isMissingNode() || value.isNull()) {
      return "-";
    }
    return value.isValueNode() ? value.asText() : value.toString();
  }

  private static String cell(ResourceKind.Column column, JsonNode value) {
    return switch (column.rendering()) {
      case TEXT -> text(value);
      case NAMESPACE_PATHS -> paths(value);
      case REFRESH_INTERVAL -> value.isTextual() ? HumanDuration.ofIso(value.asText()) : "manual";
    };
  }

  /** {@code [["a","b.c"],["d"]]} as {@code a."b.c", d}; an empty list as {@code -}. */
  private static String paths(JsonNode lists) {
    if (!lists.isArray() || lists.isEmpty()) {
      return text(lists.isArray() ? null : lists);
    }
    List<String> out = new ArrayList<>();
    for (JsonNode path : lists) {
      List<String> segments = new ArrayList<>();
      path.forEach(segment -> segments.add(segment.asText()));
      out.add(PathSyntax.format(segments));
    }
    return String.join(", ", out);
  }

  /** {@code s} padded to {@code width} terminal columns ({@link DisplayWidth}, not chars). */
  private static String pad(String s, int width) {
    int columns = DisplayWidth.of(s);
    return columns >= width ? s : s + " ".repeat(width - columns);
  }
}
