package io.icegate.access.delta.iceberg;

import io.delta.kernel.internal.fs.Path;
import java.net.URI;

/**
 * The absolute path of a file named by the log (an {@code add} or {@code remove} action's {@code
 * path}: relative to the table root and URI-encoded, or an absolute URI), exactly as Delta Kernel's
 * scan names it ({@code InternalScanFileUtils.getAddFileStatus}: the log's path resolved against
 * the root through {@code java.net.URI} and Kernel's {@code Path}).
 *
 * <p>Kernel parses two URIs per file for that, a fifth of a full capture's time on a table of
 * 10,000 files (the bench). Most paths Delta writers produce are plain relative paths ({@code
 * region=eu/part-00000-<uuid>.c000.snappy.parquet}): for those the result is the root's resolved
 * prefix followed by the path as written, which is what Kernel's resolution yields for them; every
 * other path (an escape, a scheme, an absolute or dot segment, a doubled slash, any character
 * outside the plain set) goes through Kernel's own resolution. {@code AddFilePathsTest} checks the
 * two agree.
 */
final class AddFilePaths {

  private static final String PROBE = "p";

  private final Path root;
  private final String prefix;

  /**
   * @param tableRoot the table root as Kernel names it ({@code Snapshot.getPath()}: a path, not a
   *     URI, so a space or a {@code %} in it is itself); Kernel's scan resolves against its URI
   */
  AddFilePaths(String tableRoot) {
    this.root = new Path(new Path(tableRoot).toUri());
    String probe = kernel(PROBE);
    this.prefix = probe.substring(0, probe.length() - PROBE.length());
  }

  /** The file's absolute path, as Kernel's scan gives it. */
  String absolute(String logPath) {
    return plain(logPath) ? prefix + logPath : kernel(logPath);
  }

  private String kernel(String logPath) {
    return new Path(root, new Path(URI.create(logPath))).toString();
  }

  /**
   * Whether the path is relative and made only of characters a URI carries as they are
   * (unreserved and a few sub-delimiters), in non-empty segments that are not {@code .} or {@code
   * ..}: then neither parsing, decoding nor normalizing changes it.
   */
  static boolean plain(String path) {
    int n = path.length();
    if (n == 0 || path.charAt(0) == '/' || path.charAt(n - 1) == '/') {
      return false;
    }
    int segmentStart = 0;
    for (int i = 0; i <= n; i++) {
      char c = i < n ? path.charAt(i) : '/';
      if (c == '/') {
        int length = i - segmentStart;
        if (length == 0
            || (length == 1 && path.charAt(segmentStart) == '.')
            || (length == 2 && path.charAt(segmentStart) == '.' && path.charAt(segmentStart + 1) == '.')) {
          return false;
        }
        segmentStart = i + 1;
      } else if (!(c >= 'a' && c <= 'z'
          || c >= 'A' && c <= 'Z'
          || c >= '0' && c <= '9'
          || c == '-'
          || c == '_'
          || c == '.'
          || c == '=')) {
        return false;
      }
    }
    return true;
  }
}
