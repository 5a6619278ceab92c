package io.icegate.overlay.viewsql;

/**
 * One significant token of a Spark SQL text (whitespace and comments are not tokens), with its
 * place in the text so a rewrite can replace exactly its characters.
 *
 * @param kind what it is
 * @param start index of its first character
 * @param end index after its last character
 * @param value a word as written, a backquoted identifier unquoted, a symbol's characters; a
 *     string literal's raw text (never interpreted)
 */
record SqlToken(Kind kind, int start, int end, String value) {

  enum Kind {
    /** A bare word: keyword or unquoted identifier ({@code [A-Za-z0-9_]+}, letters of any script). */
    WORD,
    /** A backquoted identifier. */
    QUOTED,
    /** A string literal ({@code '...'}, {@code "..."}, raw {@code r'...'}). */
    STRING,
    /** Any other character: operators, dots, commas, parentheses. */
    SYMBOL
  }

  /** Whether this is an identifier part: a bare word or a backquoted identifier. */
  boolean isIdentifier() {
    return kind == Kind.WORD || kind == Kind.QUOTED;
  }

  /** Whether this is the bare word {@code keyword}, compared case-insensitively. */
  boolean isWord(String keyword) {
    return kind == Kind.WORD && value.equalsIgnoreCase(keyword);
  }

  boolean isSymbol(char c) {
    return kind == Kind.SYMBOL && value.length() == 1 && value.charAt(0) == c;
  }
}
