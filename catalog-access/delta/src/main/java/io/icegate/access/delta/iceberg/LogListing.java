package io.icegate.access.delta.iceberg;

import io.delta.kernel.engine.Engine;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.regex.Pattern;

/**
 * The newest commit file of a Delta log, found by listing it with the engine's file system client:
 * what a refusal names when Kernel refused to load the latest version, so its number is unknown.
 */
final class LogListing {

  private static final Pattern COMMIT = Pattern.compile("\\d{20}\\.json");

  private LogListing() {}

  /** The newest commit file, or the log directory itself when it holds none. */
  static String newestCommit(Engine engine, String tablePath) {
    String log = tablePath.replaceAll("/$", "") + "/_delta_log/";
    String newest = log;
    try (CloseableIterator<FileStatus> files =
        engine.getFileSystemClient().listFrom(log + String.format("%020d", 0))) {
      while (files.hasNext()) {
        String path = files.next().getPath();
        if (COMMIT.matcher(path.substring(path.lastIndexOf('/') + 1)).matches()) {
          newest = path; // listed in name order; names are zero-padded versions
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return newest;
  }
}
