package io.icegate.access.delta.log;

import io.delta.kernel.defaults.engine.fileio.FileIO;
import io.delta.kernel.defaults.engine.fileio.InputFile;
import io.delta.kernel.defaults.engine.fileio.OutputFile;
import io.delta.kernel.defaults.engine.fileio.SeekableInputStream;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.icegate.access.delta.iceberg.WholeFileReads;
import io.icegate.access.storage.s3.S3Location;
import io.icegate.access.storage.s3.VendedS3Client;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The file system Delta Kernel reads a Delta log through: a read-only implementation of Kernel's
 * {@link FileIO} interface over one AWS SDK {@link S3Client}, so that Kernel's default engine (its
 * JSON and Parquet handlers) reads a Delta log without Hadoop's S3A, which would bring hadoop-aws
 * and a second, bundled AWS SDK. (Named for what it is to Kernel; it has nothing to do with
 * Iceberg's {@code S3FileIO}.)
 *
 * <p>Paths are {@code s3://bucket/key} (also {@code s3a}, {@code s3n}; the scheme is kept as
 * given) in Kernel's form, a file system path, not a URI: the key is taken as written ({@link
 * S3Location#ofPath}), as Kernel resolves a log path like {@code region=a%20b/x.parquet} to the
 * key {@code region=a b/x.parquet}. Listing follows Kernel's contract for {@code listFrom}: the files of the path's parent directory
 * whose names sort at or after the path's name, in that order; subdirectories are left out. Input
 * files read with plain GETs, and from an offset with a ranged GET, reopened on a backward or long
 * forward seek. A missing object is a {@link FileNotFoundException}, which Kernel relies on (an
 * absent {@code _last_checkpoint} is not an error); other store failures are {@link IOException}s
 * whose message is {@link VendedS3Client#describe} (status and error code, never the request) with
 * the SDK failure as cause.
 *
 * <p>Every operation that would write (create, delete, copy, mkdirs) throws {@link
 * UnsupportedOperationException}: icegate only ever reads an upstream table's log. The client is
 * the caller's to close; providers pass one that holds exactly the vended credentials.
 */
public final class KernelS3FileSystem implements FileIO, WholeFileReads {

  /** A forward seek up to this many bytes skips within the open response instead of reopening. */
  static final long SKIP_WITHIN_RESPONSE = 256 * 1024;

  private final S3Client s3;

  public KernelS3FileSystem(S3Client s3) {
    this.s3 = s3;
  }

  @Override
  public CloseableIterator<FileStatus> listFrom(String filePath) throws IOException {
    S3Location from = S3Location.ofPath(filePath);
    String directory = directory(from.key());
    ListObjectsV2Request.Builder request =
        ListObjectsV2Request.builder().bucket(from.bucket()).prefix(directory).delimiter("/");
    if (from.key().length() > directory.length()) {
      // S3 starts strictly after this key; dropping the last character keeps the path itself
      request.startAfter(from.key().substring(0, from.key().length() - 1));
    }
    List<FileStatus> found = new ArrayList<>();
    try {
      for (S3Object object : s3.listObjectsV2Paginator(request.build()).contents()) {
        if (object.key().compareTo(from.key()) >= 0) {
          found.add(
              FileStatus.of(
                  from.withKey(object.key()),
                  object.size(),
                  object.lastModified() == null ? 0 : object.lastModified().toEpochMilli()));
        }
      }
    } catch (SdkException e) {
      throw failure("listing " + from.withKey(directory), e);
    }
    if (found.isEmpty()) {
      // as for a missing directory: Kernel turns it into "table not found"
      throw new FileNotFoundException("no files at or after " + filePath);
    }
    return iterate(found);
  }

  @Override
  public FileStatus getFileStatus(String path) throws IOException {
    S3Location p = S3Location.ofPath(path);
    try {
      HeadObjectResponse head = s3.headObject(b -> b.bucket(p.bucket()).key(p.key()));
      return FileStatus.of(
          path,
          head.contentLength(),
          head.lastModified() == null ? 0 : head.lastModified().toEpochMilli());
    } catch (SdkException e) {
      throw failure(path, e);
    }
  }

  /**
   * One GET: a missing object is empty, an object over {@code maxBytes} is its status alone (the
   * response is aborted before its body is downloaded).
   */
  @Override
  public Optional<WholeFile> readWhole(String path, long maxBytes) throws IOException {
    S3Location p = S3Location.ofPath(path);
    ResponseInputStream<GetObjectResponse> body;
    try {
      body = s3.getObject(b -> b.bucket(p.bucket()).key(p.key()));
    } catch (SdkException e) {
      IOException failure = failure(path, e);
      if (failure instanceof FileNotFoundException) {
        return Optional.empty();
      }
      throw failure;
    }
    try (body) {
      GetObjectResponse response = body.response();
      if (response.contentLength() == null) {
        body.abort(); // a store that does not say the size: it is stated as Kernel would
        return Optional.of(new WholeFile(getFileStatus(path), Optional.empty()));
      }
      FileStatus status =
          FileStatus.of(
              path,
              response.contentLength(),
              response.lastModified() == null ? 0 : response.lastModified().toEpochMilli());
      if (response.contentLength() > maxBytes) {
        body.abort();
        return Optional.of(new WholeFile(status, Optional.empty()));
      }
      return Optional.of(new WholeFile(status, Optional.of(body.readAllBytes())));
    } catch (SdkException e) {
      throw failure(path, e);
    }
  }

  @Override
  public String resolvePath(String path) {
    S3Location.ofPath(path); // rejects what this FileIO cannot read
    return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }

  @Override
  public InputFile newInputFile(String path, long fileSize) {
    S3Location p = S3Location.ofPath(path);
    return new InputFile() {
      @Override
      public long length() throws IOException {
        return fileSize > 0 ? fileSize : getFileStatus(path).getSize();
      }

      @Override
      public String path() {
        return path;
      }

      @Override
      public SeekableInputStream newStream() throws IOException {
        S3Stream stream = new S3Stream(p, fileSize > 0 ? fileSize : -1);
        stream.open(); // a missing object fails here, as Kernel expects of opening
        return stream;
      }
    };
  }

  @Override
  public Optional<String> getConf(String key) {
    return Optional.empty(); // Kernel's defaults for batch sizes and the like
  }

  @Override
  public boolean mkdirs(String path) {
    throw readOnly();
  }

  @Override
  public OutputFile newOutputFile(String path) {
    throw readOnly();
  }

  @Override
  public boolean delete(String path) {
    throw readOnly();
  }

  @Override
  public void copyFileAtomically(String srcPath, String destPath, boolean overwrite) {
    throw readOnly();
  }

  /** The key up to and including its last {@code /}; empty at the bucket root. */
  private static String directory(String key) {
    int slash = key.lastIndexOf('/');
    return slash < 0 ? "" : key.substring(0, slash + 1);
  }

  private static UnsupportedOperationException readOnly() {
    return new UnsupportedOperationException("the Delta log is read-only to icegate");
  }

  /** A 404 as {@link FileNotFoundException}, anything else as {@link IOException}. */
  static IOException failure(String what, SdkException e) {
    IOException io =
        VendedS3Client.status(e) == 404
            ? new FileNotFoundException(what + ": " + VendedS3Client.describe(e))
            : new IOException(what + ": " + VendedS3Client.describe(e));
    io.initCause(e);
    return io;
  }

  private static CloseableIterator<FileStatus> iterate(List<FileStatus> files) {
    Iterator<FileStatus> it = files.iterator();
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public FileStatus next() {
        return it.next();
      }

      @Override
      public void close() {}
    };
  }

  /** One object read from a position; the open response is dropped on a seek it cannot skip. */
  private final class S3Stream extends SeekableInputStream {

    private final S3Location path;
    private long length; // -1 until known
    private long pos;
    private ResponseInputStream<GetObjectResponse> body;
    private long bodyPos; // the object offset body's next byte comes from

    S3Stream(S3Location path, long length) {
      this.path = path;
      this.length = length;
    }

    void open() throws IOException {
      if (length >= 0 && pos >= length) {
        return; // nothing left; a ranged GET past the end would be refused
      }
      GetObjectRequest.Builder request = GetObjectRequest.builder().bucket(path.bucket()).key(path.key());
      if (pos > 0) {
        request.range("bytes=" + pos + "-");
      }
      try {
        body = s3.getObject(request.build());
      } catch (SdkException e) {
        throw failure(path.toString(), e);
      }
      if (pos == 0 && body.response().contentLength() != null) {
        length = body.response().contentLength();
      }
      bodyPos = pos;
    }

    private InputStream body() throws IOException {
      if (body != null && bodyPos != pos) {
        long ahead = pos - bodyPos;
        if (ahead > 0 && ahead <= SKIP_WITHIN_RESPONSE) {
          body.skipNBytes(ahead);
          bodyPos = pos;
        } else {
          drop();
        }
      }
      if (body == null) {
        open();
      }
      return body;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      if (length >= 0 && pos >= length) {
        return -1;
      }
      InputStream in = body();
      if (in == null) {
        return -1;
      }
      int n;
      try {
        n = in.read(b, off, len);
      } catch (SdkException e) {
        throw failure(path.toString(), e);
      }
      if (n > 0) {
        pos += n;
        bodyPos += n;
      }
      return n;
    }

    @Override
    public void readFully(byte[] b, int off, int len) throws IOException {
      int done = 0;
      while (done < len) {
        int n = read(b, off + done, len - done);
        if (n < 0) {
          throw new java.io.EOFException(
              "end of " + path.toString() + " after " + pos + " bytes");
        }
        done += n;
      }
    }

    @Override
    public long getPos() {
      return pos;
    }

    @Override
    public void seek(long newPos) throws IOException {
      if (newPos < 0) {
        throw new java.io.EOFException("seek to " + newPos);
      }
      pos = newPos;
    }

    @Override
    public void close() {
      drop();
    }

    /**
     * Closes a fully read response (its connection is reused) and aborts any other: the rest of a
     * large object is not worth downloading.
     */
    private void drop() {
      if (body != null) {
        if (length < 0 || bodyPos < length) {
          body.abort();
        }
        try {
          body.close();
        } catch (IOException ignored) {
          // nothing was left to release
        }
        body = null;
      }
    }
  }
}
