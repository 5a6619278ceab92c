package io.icegate.access.delta.log;

import io.delta.kernel.Snapshot;
import io.delta.kernel.Table;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.KernelException;
import io.delta.kernel.exceptions.TableNotFoundException;
import io.delta.kernel.internal.fs.Path;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.delta.iceberg.CapturedDeltaState;
import io.icegate.access.delta.iceberg.DeltaHeads;
import io.icegate.access.delta.iceberg.DeltaVersionCapture;
import io.icegate.access.delta.iceberg.GeneratedFileException;
import io.icegate.access.delta.iceberg.GeneratedFilesIO;
import io.icegate.access.delta.iceberg.KernelReadFileIO;
import io.icegate.access.delta.iceberg.WholeFileReads;
import io.icegate.access.delta.schema.DeltaSchemas;
import io.icegate.access.storage.s3.S3Location;
import io.icegate.access.storage.s3.VendedS3Client;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.iceberg.TableMetadata;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A Delta table's transaction log on S3 ({@code <location>/_delta_log/}), read with Delta Kernel:
 * its default engine (JSON and Parquet handlers) over {@link KernelS3FileSystem}, so the newest
 * schema is found wherever the Delta protocol keeps it, in a JSON commit or in a Parquet
 * checkpoint (classic, multi-part or V2 with sidecars) once the older commits are cleaned up.
 *
 * <p>Uses whatever {@link S3Client} it is given; providers give it one holding exactly the vended
 * credentials. Nothing is written to the log.
 */
public final class DeltaLog {

  private static final Pattern COMMIT = Pattern.compile("\\d{20}\\.json");

  /**
   * The log yields no schema: there is no log, Kernel cannot read it (an unsupported reader
   * feature, a corrupt checkpoint) or the store refused a read. The message is safe to show: it
   * names paths, Kernel's reason or the store's status and error code, never the request.
   */
  public static final class UnreadableLogException extends RuntimeException {
    UnreadableLogException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * The upstream table property in which a provider states the head's {@link Head#commitIdentity}:
   * a reconcile skips a table whose capture shows the head's commit file only while the identity
   * it captured is this one (the same file name can be another table's file after the table was
   * written anew at its path).
   */
  public static final String COMMIT_IDENTITY_PROPERTY = "delta.log-commit";

  /**
   * What the log says now.
   *
   * @param version the newest table version
   * @param commitLocation that version's commit file, e.g. {@code s3://b/t/_delta_log/000...3.json}
   * @param schemaString the current schema as Delta schema JSON (logical names, field metadata)
   * @param partitionColumns the partition columns, in order; empty when unpartitioned
   * @param configuration the table properties ({@code metaData.configuration})
   * @param commitIdentity that commit file's identity (Delta table id, size and second: {@link
   *     CapturedDeltaState#commitIdentity}), which a table written anew at the path does not
   *     share; {@code null} when the file's status was not stated
   */
  public record Head(
      long version,
      String commitLocation,
      String schemaString,
      List<String> partitionColumns,
      Map<String, String> configuration,
      String commitIdentity) {

    public Head {
      partitionColumns = List.copyOf(partitionColumns);
      configuration = Map.copyOf(configuration);
    }
  }

  private final KernelS3FileSystem files;
  private final String tableLocation;
  private final String logLocation;

  /**
   * @param tableLocation {@code s3://bucket/path} (also {@code s3a}, {@code s3n}), as a catalog
   *     names it: a URI ({@code my%20table} is the key {@code my table}), or, where it is not one
   *     (a raw space), the key as written
   * @throws IllegalArgumentException for another scheme
   */
  public DeltaLog(S3Client s3, String tableLocation) {
    this.files = new KernelS3FileSystem(s3);
    this.tableLocation = files.resolvePath(kernelPath(tableLocation));
    this.logLocation = this.tableLocation + "/_delta_log/";
  }

  /**
   * The location in the form Kernel takes a table path in, a file system path: a URI decoded (so
   * Kernel's own resolution of the log's URI-encoded paths meets the store's keys), anything else
   * as it is. Capture names the table root and its data files in this form, so a credential
   * prefix a catalog states as a URI is put in it too before a client matches it against them
   * (iceberg-core's S3FileIO pairs paths with prefixes as strings).
   *
   * @throws IllegalArgumentException when {@code location} is not an S3 location
   */
  public static String kernelPath(String location) {
    S3Location.ofPath(location); // the scheme and bucket, whichever form
    URI uri;
    try {
      uri = new URI(location);
    } catch (URISyntaxException e) {
      return location;
    }
    if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
      return location; // a raw ? or # is part of the key: a table location has no query
    }
    return new Path(uri).toString();
  }

  /**
   * Loads the latest snapshot with Kernel.
   *
   * @throws UnreadableLogException when the log yields no schema
   * @throws CatalogAccessException when the outbound address policy refused the store's address
   */
  public Head head() {
    return head(null);
  }

  /**
   * As {@link #head()}, following the commits since the head {@code heads} remembers of this
   * table, where it remembers one the log still shows ({@link DeltaHeads#since}); else loading the
   * newest version in full and remembering it.
   *
   * @param heads the heads this process read; null to always load in full
   */
  public Head head(DeltaHeads heads) {
    Engine engine = WholeFileReads.engine(DefaultEngine.create(files), files);
    if (heads != null) {
      Optional<DeltaHeads.Head> known;
      try {
        known = heads.since(engine, tableLocation);
      } catch (RuntimeException e) {
        // a commit since that Kernel cannot read: the full load below says why
        known = Optional.empty();
      }
      if (known.isPresent()) {
        DeltaHeads.Head head = known.get();
        return new Head(
            head.version(),
            logLocation + String.format("%020d.json", head.version()),
            head.schemaJson(),
            head.partitionColumns(),
            head.configuration(),
            head.commitIdentity().orElse(null));
      }
    }
    Snapshot snapshot;
    try {
      snapshot = Table.forPath(engine, tableLocation).getLatestSnapshot(engine);
    } catch (TableNotFoundException e) {
      throw new UnreadableLogException("no Delta commits under " + logLocation, e);
    } catch (RuntimeException e) {
      throw unreadable(e);
    } catch (LinkageError e) {
      // a packaging fault, not the table's: Kernel's Parquet reader needs Hadoop's client jars
      throw new UnreadableLogException(
          "Delta Kernel is missing a class to read the log: " + e.getMessage(), e);
    }
    if (heads != null) {
      heads.remember(engine, tableLocation, snapshot);
    }
    return new Head(
        snapshot.getVersion(),
        logLocation + String.format("%020d.json", snapshot.getVersion()),
        snapshot.getSchema().toJson(),
        snapshot.getPartitionColumnNames(),
        snapshot.getTableProperties(),
        DeltaHeads.commitIdentity(snapshot).orElse(null));
  }

  /**
   * Captures a version of the table as an Iceberg snapshot ({@link DeltaVersionCapture}), reading
   * the log and, where the log has no statistics, data file footers through this log's client.
   *
   * @param version the version to capture (Delta Sharing: the one the share serves); empty for
   *     the latest
   * @param previous the metadata of the table's previous capture, or null
   * @param tableIdentity a stable identity of the table: snapshot ids derive from it
   * @param generatedLocation where manifests, manifest lists and delete files go
   * @param generatedIo writes there
   * @throws UnreadableLogException when the log or a file cannot be read
   * @throws DeltaVersionCapture.UnrepresentableFeatureException for a feature that cannot be served
   * @throws DeltaSchemas.UnsupportedTypeException for a column type Iceberg has not
   * @throws CatalogAccessException when the outbound address policy refused the store's address
   */
  public TableMetadata capture(
      Optional<Long> version,
      TableMetadata previous,
      String tableIdentity,
      String generatedLocation,
      org.apache.iceberg.io.FileIO generatedIo) {
    return captureChanges(
            version, previous, Optional.empty(), tableIdentity, generatedLocation, generatedIo)
        .metadata();
  }

  /**
   * As {@link #capture}, saying whether only the commits since {@code previous} were read, which
   * data files the new snapshot added or removed (validation then checks only the added ones) and
   * the captured version's Delta state, which the caller keeps for the next capture.
   *
   * @param previousState the Delta state the capture of {@code previous} returned ({@link
   *     DeltaVersionCapture.Captured#deltaState}); empty when unknown: the version is then loaded
   *     in full (its checkpoint read)
   */
  public DeltaVersionCapture.Captured captureChanges(
      Optional<Long> version,
      TableMetadata previous,
      Optional<CapturedDeltaState> previousState,
      String tableIdentity,
      String generatedLocation,
      org.apache.iceberg.io.FileIO generatedIo) {
    // the next commit is read in one GET, not a HEAD and a GET
    Engine engine = WholeFileReads.engine(DefaultEngine.create(files), files);
    try {
      return DeltaVersionCapture.captureChanges(
          engine,
          tableLocation,
          version,
          previous,
          previousState,
          new DeltaVersionCapture.Target(
              tableIdentity, generatedLocation, new GeneratedFilesIO(generatedIo),
              new KernelReadFileIO(files)));
    } catch (TableNotFoundException e) {
      throw new UnreadableLogException("no Delta commits under " + logLocation, e);
    } catch (DeltaVersionCapture.UnrepresentableFeatureException
        | DeltaSchemas.UnsupportedTypeException e) {
      throw e; // the table's, not the log's: callers hide or hold the table by name
    } catch (RuntimeException e) {
      throw unreadable(e);
    }
  }

  /**
   * Lists the log and reads its newest commit through once: the non-mutating proof that the
   * credentials open the log.
   *
   * @return the newest commit's location
   * @throws UnreadableLogException when the log holds no commit or the store refuses
   * @throws CatalogAccessException when the outbound address policy refused the store's address
   */
  public String readNewestCommit() {
    String newest = null;
    try {
      try (CloseableIterator<FileStatus> listing = files.listFrom(logLocation + "0")) {
        while (listing.hasNext()) {
          String path = listing.next().getPath();
          if (COMMIT.matcher(path.substring(path.lastIndexOf('/') + 1)).matches()) {
            newest = path; // listed in name order, and names are zero-padded versions
          }
        }
      }
      if (newest == null) {
        throw new FileNotFoundException("no commit file");
      }
      try (InputStream in = files.newInputFile(newest, -1).newStream()) {
        in.transferTo(OutputStream.nullOutputStream());
      }
      return newest;
    } catch (FileNotFoundException e) {
      throw new UnreadableLogException("no Delta commits under " + logLocation, e);
    } catch (IOException e) {
      throw unreadable(e);
    } catch (RuntimeException e) {
      throw unreadable(e);
    }
  }

  /**
   * Store failures as their status and code; Kernel's own refusals with its message; a refusal
   * by the outbound address policy (raised inside the SDK's resolver) as itself.
   */
  private RuntimeException unreadable(Exception e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof CatalogAccessException access) {
        return access;
      }
      if (t instanceof GeneratedFileException generated) {
        return generated; // the warehouse's failure: the log was read
      }
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SdkException) {
        return new UnreadableLogException(
            "reading the Delta log failed: " + VendedS3Client.describe(t), e);
      }
    }
    if (e instanceof KernelException || e instanceof IllegalArgumentException) {
      return new UnreadableLogException(
          "Delta Kernel cannot read the log under " + logLocation + ": " + e.getMessage(), e);
    }
    Throwable cause = e instanceof UncheckedIOException ? e.getCause() : e;
    return new UnreadableLogException(
        "reading the Delta log under " + logLocation + " failed: "
            + cause.getClass().getSimpleName() + " " + cause.getMessage(),
        e);
  }
}
