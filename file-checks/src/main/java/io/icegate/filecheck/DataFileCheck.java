package io.icegate.filecheck;

import io.icegate.access.storage.s3.VendedS3Client;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.puffin.Puffin;
import org.apache.iceberg.puffin.PuffinReader;

/**
 * Validates the files of a table's current snapshot (issue 10 "Validation"): every live data and
 * delete file named by its manifests exists, is as long as the manifest says, and reads as its
 * format: Parquet by footer ({@link ParquetFileCheck}: columns by field id or name mapping,
 * compatible types, row count), ORC by its tail with ORC's reader ({@link OrcFileCheck}: the same
 * column rules), Avro by its header schema and container blocks ({@link AvroFileCheck}), Puffin
 * (deletion vectors) by footer.
 *
 * <p>One {@link FileProblem} per bad file, the first problem found in it. A manifest list or
 * manifest that cannot be read is one problem naming that file (so wrong or missing credentials
 * show as a single problem on the manifest list, not one per data file, which could not even be
 * enumerated). Memory is bounded by a few manifest entries at a time plus the problems found:
 * manifests are streamed, entries are read without column statistics, and only footers, tails and
 * block headers of data files are read.
 *
 * <p>Manifests are read in the calling thread; files are checked on up to {@code parallelism}
 * threads of the call's own (object-store round trips, not CPU, dominate). Stateless; every call
 * reads afresh through the given {@link FileIO} (use {@link ValidationFileIO} for a federated
 * table).
 */
public final class DataFileCheck {

  /** The manifest columns the checks need; statistics are left unread. */
  private static final List<String> ENTRY_COLUMNS =
      List.of(
          "file_path",
          "file_format",
          "file_size_in_bytes",
          "record_count",
          "content",
          "content_offset",
          "content_size_in_bytes");

  /** Files checked at once by default: object-store round trips, not CPU, bound a check. */
  public static final int DEFAULT_PARALLELISM = 8;

  private DataFileCheck() {}

  /**
   * Every problem of the current snapshot's data and delete files, checking up to {@link
   * #DEFAULT_PARALLELISM} files at once.
   *
   * @param metadata the table as captured; no current snapshot means no files and no problems
   * @param io reads manifest lists, manifests and data files; must allow concurrent reads
   * @return the problems in manifest order, one per bad file; empty when every file conforms
   * @throws java.util.concurrent.CancellationException when the calling thread is interrupted
   */
  public static List<FileProblem> check(TableMetadata metadata, FileIO io) {
    return check(metadata, io, DEFAULT_PARALLELISM);
  }

  /**
   * As {@link #check(TableMetadata, FileIO)} with {@code parallelism} files checked at once (1:
   * all in the calling thread).
   */
  public static List<FileProblem> check(TableMetadata metadata, FileIO io, int parallelism) {
    return checkOnly(metadata, io, parallelism, file -> true);
  }

  /**
   * As {@link #check(TableMetadata, FileIO)}, handing each problem to {@code problems} as it is
   * found (in completion order, one call at a time, possibly from a pool thread; every call has
   * happened when this returns) instead of collecting them.
   */
  public static void check(TableMetadata metadata, FileIO io, Consumer<FileProblem> problems) {
    check(metadata, io, DEFAULT_PARALLELISM, problems);
  }

  /**
   * As {@link #check(TableMetadata, FileIO, int)}, handing each problem to {@code problems} as it
   * is found (in completion order, one call at a time) instead of collecting them, for tables with
   * very many bad files.
   */
  public static void check(
      TableMetadata metadata, FileIO io, int parallelism, Consumer<FileProblem> problems) {
    run(metadata, io, parallelism, file -> true, (order, problem) -> problems.accept(problem));
  }

  /**
   * As {@link #check(TableMetadata, FileIO, int)}, checking only the files {@code which} accepts
   * (manifest lists and manifests are still read whole): an incremental validation that checks
   * the files a new capture added and keeps the earlier verdict for the others.
   */
  public static List<FileProblem> checkOnly(
      TableMetadata metadata, FileIO io, int parallelism, Predicate<ContentFile<?>> which) {
    List<Found> found = new ArrayList<>();
    run(metadata, io, parallelism, which, (order, problem) -> found.add(new Found(order, problem)));
    found.sort(Comparator.comparingLong(Found::order));
    return found.stream().map(Found::problem).toList();
  }

  /** A problem with its file's position in manifest order. */
  private record Found(long order, FileProblem problem) {}

  /** Receives problems one call at a time, from whichever thread found them. */
  private interface Sink {
    void accept(long order, FileProblem problem);
  }

  private static void run(TableMetadata metadata, FileIO io, int parallelism,
      Predicate<ContentFile<?>> which, Sink unsafeSink) {
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism must be at least 1: " + parallelism);
    }
    Object lock = new Object();
    Sink sink =
        (order, problem) -> {
          synchronized (lock) {
            unsafeSink.accept(order, problem);
          }
        };
    Snapshot snapshot = metadata.currentSnapshot();
    if (snapshot == null) {
      return;
    }
    TableColumns columns = new TableColumns(metadata);
    List<ManifestFile> manifests;
    try {
      manifests = snapshot.allManifests(io);
    } catch (RuntimeException e) {
      String list = Objects.requireNonNullElse(snapshot.manifestListLocation(), metadata.location());
      sink.accept(
          0,
          new FileProblem(
              list, FileFormat.AVRO.name(), "the manifest list cannot be read: " + reason(e)));
      return;
    }
    try (FilePool pool = new FilePool(parallelism)) {
      Set<String> puffinFilesSeen = new HashSet<>();
      long order = 0;
      for (ManifestFile manifest : manifests) {
        try (ManifestReader<? extends ContentFile<?>> reader = open(manifest, io, metadata)) {
          for (ContentFile<?> file : reader) {
            if (!which.test(file)
                || (file.format() == FileFormat.PUFFIN && !puffinFilesSeen.add(file.location()))) {
              continue; // several deletion vectors share one Puffin file: check it once
            }
            long position = order++;
            pool.submit(
                () ->
                    inspect(file, io, columns)
                        .ifPresent(
                            message ->
                                sink.accept(
                                    position,
                                    new FileProblem(
                                        file.location(), file.format().name(), message))));
          }
        } catch (IOException | RuntimeException e) {
          sink.accept(
              order++,
              new FileProblem(
                  manifest.path(),
                  FileFormat.AVRO.name(),
                  "the manifest cannot be read: " + reason(e)));
        }
      }
    }
  }

  private static ManifestReader<? extends ContentFile<?>> open(
      ManifestFile manifest, FileIO io, TableMetadata metadata) {
    if (manifest.content() == ManifestContent.DELETES) {
      return ManifestFiles.readDeleteManifest(manifest, io, metadata.specsById())
          .select(ENTRY_COLUMNS);
    }
    return ManifestFiles.read(manifest, io, metadata.specsById()).select(ENTRY_COLUMNS);
  }

  /** The first problem of one data or delete file. */
  private static Optional<String> inspect(ContentFile<?> file, FileIO io, TableColumns columns) {
    InputFile input;
    long length;
    try {
      input = io.newInputFile(file.location());
      if (!input.exists()) {
        return Optional.of("the file does not exist");
      }
      length = input.getLength();
    } catch (StorageRefusedException e) {
      return Optional.of(e.getMessage());
    } catch (RuntimeException e) {
      return Optional.of("the file cannot be read: " + reason(e));
    }
    if (length != file.fileSizeInBytes()) {
      return Optional.of(
          "the file is "
              + length
              + " bytes long but the manifest records "
              + file.fileSizeInBytes()
              + " bytes");
    }
    try {
      switch (file.format()) {
        case PARQUET:
          return ParquetFileCheck.problem(file, input, columns);
        case ORC:
          return OrcFileCheck.problem(file, input, columns);
        case AVRO:
          return AvroFileCheck.problem(file, input, length, columns);
        case PUFFIN:
          return puffinProblem(file, input, length);
        default:
          return Optional.of("files in format " + file.format() + " cannot be checked");
      }
    } catch (RuntimeException e) {
      return Optional.of("the file cannot be checked: " + reason(e));
    }
  }

  /** A deletion vector's Puffin file: the footer parses and the vector lies inside the file. */
  private static Optional<String> puffinProblem(ContentFile<?> file, InputFile input, long length) {
    try (PuffinReader reader = Puffin.read(input).withFileSize(length).build()) {
      reader.fileMetadata();
    } catch (IOException | RuntimeException e) {
      return Optional.of("the Puffin footer cannot be read: " + reason(e));
    }
    if (file instanceof DeleteFile delete
        && delete.contentOffset() != null
        && delete.contentSizeInBytes() != null
        && delete.contentOffset() + delete.contentSizeInBytes() > length) {
      return Optional.of("the deletion vector runs past the end of the file");
    }
    return Optional.empty();
  }

  static String rowCountMismatch(long inFile, long inManifest) {
    return "the file holds " + inFile + " rows but the manifest records " + inManifest;
  }

  /**
   * A failure in plain words: an object store's status and error code (never the request, whose
   * headers carry credentials), else the innermost message.
   */
  static String reason(Throwable failure) {
    if (VendedS3Client.status(failure) >= 0) {
      return VendedS3Client.describe(failure);
    }
    if (failure instanceof StorageRefusedException) {
      return failure.getMessage();
    }
    String message = null;
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof StorageRefusedException) {
        return t.getMessage();
      }
      if (t.getMessage() != null) {
        message = t.getMessage();
      }
    }
    return message != null ? message : failure.getClass().getSimpleName();
  }
}
