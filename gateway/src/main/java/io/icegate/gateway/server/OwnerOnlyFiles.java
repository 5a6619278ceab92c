package io.icegate.gateway.server;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Creates the data dir (0700) and the SQLite file (0600) readable by the server's user only: they
 * hold every token digest, the catalogs and, encrypted, the stored credentials. On file systems
 * without POSIX permissions the platform's defaults apply. Only what is created here gets these
 * modes; an existing directory or file keeps the ones its owner chose.
 */
final class OwnerOnlyFiles {
  private OwnerOnlyFiles() {}

  /** {@code dir} and any missing parents, the ones created here mode 0700. */
  static void createDirectories(Path dir) throws IOException {
    Path absolute = dir.toAbsolutePath();
    if (Files.isDirectory(absolute)) {
      return;
    }
    if (absolute.getParent() != null) {
      createDirectories(absolute.getParent());
    }
    try {
      if (posix(absolute)) {
        Files.createDirectory(absolute, mode("rwx------"));
      } else {
        Files.createDirectory(absolute);
      }
    } catch (FileAlreadyExistsException e) {
      if (!Files.isDirectory(absolute)) {
        throw e;
      }
    }
  }

  /**
   * Creates the empty file {@code file} with mode 0600 unless it exists. SQLite gives its
   * {@code -wal} and {@code -shm} files the database file's mode, so they follow.
   */
  static void createFile(Path file) throws IOException {
    if (Files.exists(file)) {
      return;
    }
    try {
      if (posix(file)) {
        Files.createFile(file, mode("rw-------"));
      } else {
        Files.createFile(file);
      }
    } catch (FileAlreadyExistsException e) {
      // Created meanwhile: its creator chose the mode.
    }
  }

  private static boolean posix(Path path) throws IOException {
    Path existing = path.toAbsolutePath().getParent();
    return existing != null
        && Files.getFileStore(existing).supportsFileAttributeView("posix");
  }

  private static FileAttribute<?> mode(String permissions) {
    return PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(permissions));
  }
}
