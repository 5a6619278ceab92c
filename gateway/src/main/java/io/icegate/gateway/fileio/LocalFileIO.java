package io.icegate.gateway.fileio;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.BulkDeletionFailureException;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * A {@link FileIO} over the local file system for {@code file:} locations (and bare absolute
 * paths), without Hadoop: iceberg-core ships no local FileIO of its own, and Hadoop's would add tens
 * of megabytes to the server for the one scheme the default warehouse uses.
 *
 * <p>Locations are not URI-decoded: Iceberg builds them by concatenating names (which may contain
 * spaces or {@code %}), as Hadoop's {@code Path} also treats them.
 */
public final class LocalFileIO implements FileIO, SupportsPrefixOperations {
  private static final long serialVersionUID = 1L;

  private Map<String, String> properties = Map.of();

  @Override
  public void initialize(Map<String, String> props) {
    this.properties = Map.copyOf(props);
  }

  @Override
  public Map<String, String> properties() {
    return properties;
  }

  /** The local path of {@code location}: {@code file:///p}, {@code file:/p} or {@code /p}. */
  static Path pathOf(String location) {
    String path;
    if (location.startsWith("file://")) {
      path = location.substring("file://".length());
    } else if (location.startsWith("file:")) {
      path = location.substring("file:".length());
    } else if (location.startsWith("/")) {
      path = location;
    } else {
      throw new IllegalArgumentException("not a local file location: " + location);
    }
    return Path.of(path);
  }

  @Override
  public InputFile newInputFile(String location) {
    return new LocalInputFile(location, pathOf(location));
  }

  @Override
  public OutputFile newOutputFile(String location) {
    return new LocalOutputFile(location, pathOf(location));
  }

  @Override
  public void deleteFile(String location) {
    try {
      Files.deleteIfExists(pathOf(location));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + location, e);
    }
  }

  @Override
  public Iterable<FileInfo> listPrefix(String prefix) {
    Path root = pathOf(prefix);
    if (!Files.isDirectory(root)) {
      return java.util.List.of();
    }
    String base = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile)
          .map(p -> new FileInfo(base + "/" + root.relativize(p), size(p), modified(p)))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + prefix, e);
    }
  }

  @Override
  public void deletePrefix(String prefix) {
    Path root = pathOf(prefix);
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> files = Files.walk(root)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new BulkDeletionFailureException(1);
    }
  }

  private static long size(Path p) {
    try {
      return Files.size(p);
    } catch (IOException e) {
      return 0;
    }
  }

  private static long modified(Path p) {
    try {
      return Files.getLastModifiedTime(p).toMillis();
    } catch (IOException e) {
      return 0;
    }
  }

  private record LocalInputFile(String location, Path path) implements InputFile {
    @Override
    public long getLength() {
      try {
        return Files.size(path);
      } catch (NoSuchFileException e) {
        throw new NotFoundException(e, "file does not exist: %s", location);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public SeekableInputStream newStream() {
      try {
        return new ChannelInputStream(FileChannel.open(path, StandardOpenOption.READ));
      } catch (NoSuchFileException e) {
        throw new NotFoundException(e, "file does not exist: %s", location);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public boolean exists() {
      return Files.exists(path);
    }
  }

  private record LocalOutputFile(String location, Path path) implements OutputFile {
    @Override
    public PositionOutputStream create() {
      return open(StandardOpenOption.CREATE_NEW);
    }

    @Override
    public PositionOutputStream createOrOverwrite() {
      return open(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
    }

    private PositionOutputStream open(StandardOpenOption... options) {
      try {
        Files.createDirectories(path.getParent());
        OpenOptions all = new OpenOptions(options);
        return new CountingOutputStream(Files.newOutputStream(path, all.withWrite()));
      } catch (FileAlreadyExistsException e) {
        throw new AlreadyExistsException(e, "file already exists: %s", location);
      } catch (FileSystemException e) {
        if (nameTooLong(path)) {
          // a client's table or namespace name within the catalog's 255 characters can still be
          // more than the 255 bytes a local file system stores per name (200 x 'ü' is 400
          // bytes): the client's input, which answered 500 "internal error" (tryout)
          throw new BadRequestException(e, "a name in this table's location is longer than the "
              + "%d bytes (UTF-8) a local file system stores: choose a shorter name",
              MAX_NAME_BYTES);
        }
        throw new UncheckedIOException(e);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public InputFile toInputFile() {
      return new LocalInputFile(location, path);
    }
  }

  /** The longest name, in bytes, that ext4 and XFS store (their ENAMETOOLONG limit). */
  private static final int MAX_NAME_BYTES = 255;

  private static boolean nameTooLong(Path path) {
    for (Path name : path) {
      if (name.toString().getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
        return true;
      }
    }
    return false;
  }

  private record OpenOptions(StandardOpenOption[] options) {
    StandardOpenOption[] withWrite() {
      StandardOpenOption[] all = java.util.Arrays.copyOf(options, options.length + 1);
      all[options.length] = StandardOpenOption.WRITE;
      return all;
    }
  }

  private static final class ChannelInputStream extends SeekableInputStream {
    private final FileChannel channel;

    ChannelInputStream(FileChannel channel) {
      this.channel = channel;
    }

    @Override
    public long getPos() throws IOException {
      return channel.position();
    }

    @Override
    public void seek(long newPos) throws IOException {
      channel.position(newPos);
    }

    @Override
    public int read() throws IOException {
      ByteBuffer one = ByteBuffer.allocate(1);
      int n = channel.read(one);
      return n <= 0 ? -1 : one.get(0) & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      return channel.read(ByteBuffer.wrap(b, off, len));
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }

  private static final class CountingOutputStream extends PositionOutputStream {
    private final OutputStream out;
    private long position;

    CountingOutputStream(OutputStream out) {
      this.out = out;
    }

    @Override
    public long getPos() {
      return position;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      position++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      position += len;
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      out.close();
    }
  }
}
