package io.icegate.cli.command;

import io.icegate.cli.path.PathSyntax;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The options {@code overlay create} and {@code overlay update} share (one {@code @Mixin}): the
 * namespace selection and the refresh settings. On update a flag left out leaves its member as it
 * is; {@code manual} and {@code current} name the defaults (no refresh demand, the current capture
 * only), which update sends as JSON null and create leaves out.
 */
final class OverlayOptions {
  /** The {@code --refresh-interval} value of "refreshed on request only". */
  static final String MANUAL = "manual";
  /** The {@code --retention} value of "the current capture only". */
  static final String CURRENT = "current";

  @Option(names = "--include", paramLabel = "PATH",
      description = "Upstream namespace to include with its descendants (repeatable; on update "
          + "the flags replace the whole list); segments separated by dots, a segment with a "
          + "dot in double quotes.")
  List<String> include;

  @Option(names = "--exclude", paramLabel = "PATH",
      description = "Namespace to leave out with its descendants (repeatable; on update the "
          + "flags replace the whole list).")
  List<String> exclude;

  @Option(names = "--refresh-interval", paramLabel = "DURATION|manual",
      description = "Refresh this often (5m, 1h or ISO-8601 such as PT5M; at least PT5S), or "
          + "'manual' for on request only (the default).")
  String refreshInterval;

  @Option(names = "--retention", paramLabel = "DURATION|current",
      description = "Captured history to keep (7d, P7D, P1W; not months or years), or "
          + "'current' for the current capture only (the default).")
  String retention;

  /** The include paths as the admin API takes them; null when no {@code --include} was given. */
  List<List<String>> includes() {
    return paths(include);
  }

  /** The exclude paths as the admin API takes them; null when no {@code --exclude} was given. */
  List<List<String>> excludes() {
    return paths(exclude);
  }

  /**
   * The interval to send as ISO-8601 ({@link DurationOption}): null for {@code manual} (and when
   * the flag was not given).
   */
  String interval() {
    return MANUAL.equals(refreshInterval) ? null
        : DurationOption.iso(refreshInterval, "--refresh-interval");
  }

  /**
   * The retention to send as ISO-8601 ({@link DurationOption}): null for {@code current} (and
   * when the flag was not given).
   */
  String kept() {
    return CURRENT.equals(retention) ? null : DurationOption.iso(retention, "--retention");
  }

  /** Whether no option of this group was given. */
  boolean none() {
    return include == null && exclude == null && refreshInterval == null && retention == null;
  }

  private static List<List<String>> paths(List<String> given) {
    return given == null ? null : given.stream().map(PathSyntax::parse).toList();
  }
}
