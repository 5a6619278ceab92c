package io.icegate.access.delta.iceberg;

import io.delta.kernel.engine.Engine;
import io.delta.kernel.engine.FileSystemClient;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real Kernel engine (Kernel's default Hadoop one over local disk) whose listings of a table's
 * {@code _delta_log/} are counted and whose existence checks are recorded and can be steered per
 * file name: answered "missing" though the file exists, failed with an I/O error, or preceded or
 * followed by an action (a commit landing just before or just after the check). Everything else is
 * the wrapped engine's, so what Kernel reads is the real table.
 */
final class CountedEngine extends ForwardingEngine {

  /** How one existence check is answered; {@code real} is the wrapped engine's client. */
  @FunctionalInterface
  interface Check {
    FileStatus answer(String path, FileSystemClient real) throws IOException;
  }

  /** "No such file", whatever the disk holds: the check lost a race with the commit's writer. */
  static Check missing() {
    return (path, real) -> {
      throw new FileNotFoundException(path);
    };
  }

  /** A check that fails for another reason than a missing file (a throttled or broken store). */
  static Check failing() {
    return (path, real) -> {
      throw new IOException("store unavailable: " + path);
    };
  }

  /** The real answer, with {@code action} done just before the check reaches the store. */
  static Check checkAfter(Runnable action) {
    return (path, real) -> {
      action.run();
      return real.getFileStatus(path);
    };
  }

  /** The real answer, with {@code action} done once the store has answered. */
  static Check checkBefore(Runnable action) {
    return (path, real) -> {
      try {
        return real.getFileStatus(path);
      } finally {
        action.run();
      }
    };
  }

  private final AtomicInteger logListings;
  private final List<String> checked;
  private final Map<String, Check> checks;

  CountedEngine(Engine engine) {
    this(engine, new AtomicInteger(), new ArrayList<>(), new ConcurrentHashMap<>());
  }

  private CountedEngine(
      Engine engine, AtomicInteger logListings, List<String> checked, Map<String, Check> checks) {
    super(engine, new Counted(engine.getFileSystemClient(), logListings, checked, checks));
    this.logListings = logListings;
    this.checked = checked;
    this.checks = checks;
  }

  /** How many times a {@code _delta_log/} directory was listed since the last {@link #reset}. */
  int logListings() {
    return logListings.get();
  }

  /** The paths whose existence was checked, in the order the checks began. */
  List<String> checked() {
    synchronized (checked) {
      return List.copyOf(checked);
    }
  }

  /** Answers the existence checks of files named {@code name} (last path segment) with {@code check}. */
  CountedEngine onCheckOf(String name, Check check) {
    checks.put(name, check);
    return this;
  }

  /** Forgets the counts and the steered checks. */
  void reset() {
    logListings.set(0);
    synchronized (checked) {
      checked.clear();
    }
    checks.clear();
  }

  /** The commit file's name of a version, as a check is steered by it. */
  static String commitName(long version) {
    return String.format("%020d.json", version);
  }

  /** Kernel's file system client, with log listings counted and existence checks steered. */
  private static final class Counted extends ForwardingEngine.Files {
    private final AtomicInteger logListings;
    private final List<String> checked;
    private final Map<String, Check> checks;

    Counted(
        FileSystemClient files,
        AtomicInteger logListings,
        List<String> checked,
        Map<String, Check> checks) {
      super(files);
      this.logListings = logListings;
      this.checked = checked;
      this.checks = checks;
    }

    @Override
    public CloseableIterator<FileStatus> listFrom(String filePath) throws IOException {
      // Kernel lists the log from a name inside it: the directory is everything before the name
      String directory = filePath.substring(0, Math.max(0, filePath.lastIndexOf('/')));
      if (directory.endsWith("/_delta_log")) {
        logListings.incrementAndGet();
      }
      return files.listFrom(filePath);
    }

    @Override
    public FileStatus getFileStatus(String path) throws IOException {
      synchronized (checked) {
        checked.add(path);
      }
      Check check = checks.get(path.substring(path.lastIndexOf('/') + 1));
      return check != null ? check.answer(path, files) : files.getFileStatus(path);
    }
  }
}
