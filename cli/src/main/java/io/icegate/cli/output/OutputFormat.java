package io.icegate.cli.output;

/** How results are printed. */
public enum OutputFormat {
  /** Aligned columns and key/value lines, for people. */
  table,
  /** The server's JSON, pretty-printed, for scripts. */
  json
}
