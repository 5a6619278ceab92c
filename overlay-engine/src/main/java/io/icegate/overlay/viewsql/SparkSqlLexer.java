package io.icegate.overlay.viewsql;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a Spark SQL text into {@link SqlToken}s by the rules of Spark's own lexer
 * ({@code SqlBaseLexer.g4}) that matter for finding names: string literals in single or double
 * quotes with backslash escapes and doubled quotes, raw strings ({@code r'...'}, no escapes),
 * backquoted identifiers ({@code ``} is a backquote inside), {@code --} comments to the end of
 * the line (a backslash before the line break continues them), bracketed comments, nested as
 * Spark nests them. So a name inside a literal or a comment is never taken for a reference.
 */
final class SparkSqlLexer {
  private final String sql;
  private int pos;

  private SparkSqlLexer(String sql) {
    this.sql = sql;
  }

  /**
   * The significant tokens of {@code sql}, in order.
   *
   * @throws IllegalArgumentException when a string, backquoted identifier or comment is not
   *     closed (the text is not valid Spark SQL)
   */
  static List<SqlToken> tokens(String sql) {
    return new SparkSqlLexer(sql).all();
  }

  private List<SqlToken> all() {
    List<SqlToken> out = new ArrayList<>();
    while (pos < sql.length()) {
      char c = sql.charAt(pos);
      int start = pos;
      if (Character.isWhitespace(c)) {
        pos++;
      } else if (c == '-' && peek(1) == '-') {
        lineComment();
      } else if (c == '/' && peek(1) == '*') {
        bracketedComment();
      } else if (c == '`') {
        out.add(new SqlToken(SqlToken.Kind.QUOTED, start, pos = quotedEnd(), unquote(start)));
      } else if ((c == 'r' || c == 'R') && (peek(1) == '\'' || peek(1) == '"')) {
        pos = rawStringEnd();
        out.add(new SqlToken(SqlToken.Kind.STRING, start, pos, sql.substring(start, pos)));
      } else if (c == '\'' || c == '"') {
        pos = stringEnd(c);
        out.add(new SqlToken(SqlToken.Kind.STRING, start, pos, sql.substring(start, pos)));
      } else if (isWordChar(c)) {
        while (pos < sql.length() && isWordChar(sql.charAt(pos))) {
          pos++;
        }
        out.add(new SqlToken(SqlToken.Kind.WORD, start, pos, sql.substring(start, pos)));
      } else {
        pos++;
        out.add(new SqlToken(SqlToken.Kind.SYMBOL, start, pos, String.valueOf(c)));
      }
    }
    return out;
  }

  private static boolean isWordChar(char c) {
    return c == '_' || Character.isLetterOrDigit(c);
  }

  private char peek(int ahead) {
    return pos + ahead < sql.length() ? sql.charAt(pos + ahead) : '\0';
  }

  private void lineComment() {
    while (pos < sql.length() && sql.charAt(pos) != '\n' && sql.charAt(pos) != '\r') {
      // Spark's SIMPLE_COMMENT: a backslash right before the line break continues the comment.
      if (sql.charAt(pos) == '\\' && (peek(1) == '\n' || peek(1) == '\r')) {
        pos += peek(1) == '\r' && peek(2) == '\n' ? 3 : 2;
      } else {
        pos++;
      }
    }
  }

  private void bracketedComment() {
    int start = pos;
    int depth = 0;
    while (pos < sql.length()) {
      if (sql.charAt(pos) == '/' && peek(1) == '*') {
        depth++;
        pos += 2;
      } else if (sql.charAt(pos) == '*' && peek(1) == '/') {
        depth--;
        pos += 2;
        if (depth == 0) {
          return;
        }
      } else {
        pos++;
      }
    }
    throw unclosed("comment", start);
  }

  /** After the closing backquote; {@code ``} inside is one backquote. */
  private int quotedEnd() {
    int i = pos + 1;
    while (i < sql.length()) {
      if (sql.charAt(i) == '`') {
        if (i + 1 < sql.length() && sql.charAt(i + 1) == '`') {
          i += 2;
          continue;
        }
        return i + 1;
      }
      i++;
    }
    throw unclosed("backquoted identifier", pos);
  }

  private String unquote(int start) {
    return sql.substring(start + 1, pos - 1).replace("``", "`");
  }

  private int stringEnd(char quote) {
    int i = pos + 1;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      if (c == '\\') {
        i += 2;
      } else if (c == quote) {
        if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
          i += 2;
          continue;
        }
        return i + 1;
      } else {
        i++;
      }
    }
    throw unclosed("string literal", pos);
  }

  private int rawStringEnd() {
    char quote = sql.charAt(pos + 1);
    int close = sql.indexOf(quote, pos + 2);
    if (close < 0) {
      throw unclosed("raw string literal", pos);
    }
    return close + 1;
  }

  private IllegalArgumentException unclosed(String what, int at) {
    return new IllegalArgumentException("unclosed " + what + " at offset " + at);
  }
}
