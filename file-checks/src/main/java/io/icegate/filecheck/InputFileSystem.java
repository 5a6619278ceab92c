package io.icegate.filecheck;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.Seekable;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * A Hadoop {@link FileSystem} that can only open one Iceberg {@link InputFile}, so that ORC's reader
 * (which takes a FileSystem) reads through the validation FileIO and its credentials rather than
 * through a Hadoop file system of its own. Iceberg's ORC module has the same adapter, but not as a
 * public class. Every other operation throws.
 */
final class InputFileSystem extends FileSystem {

  private final InputFile file;

  InputFileSystem(InputFile file, Configuration conf) {
    this.file = file;
    setConf(conf);
  }

  @Override
  public URI getUri() {
    return URI.create(file.location());
  }

  @Override
  public FSDataInputStream open(Path path) {
    return open(path, 0);
  }

  @Override
  public FSDataInputStream open(Path path, int bufferSize) {
    return new FSDataInputStream(new Stream(file.newStream()));
  }

  @Override
  public FileStatus getFileStatus(Path path) {
    return new FileStatus(file.getLength(), false, 1, file.getLength(), 0, path);
  }

  @Override
  public FSDataOutputStream create(
      Path f,
      FsPermission permission,
      boolean overwrite,
      int bufferSize,
      short replication,
      long blockSize,
      Progressable progress) {
    throw new UnsupportedOperationException("read-only");
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress) {
    throw new UnsupportedOperationException("read-only");
  }

  @Override
  public boolean rename(Path src, Path dst) {
    throw new UnsupportedOperationException("read-only");
  }

  @Override
  public boolean delete(Path f, boolean recursive) {
    throw new UnsupportedOperationException("read-only");
  }

  @Override
  public FileStatus[] listStatus(Path f) {
    throw new UnsupportedOperationException("not a directory");
  }

  @Override
  public void setWorkingDirectory(Path dir) {
    throw new UnsupportedOperationException("no working directory");
  }

  @Override
  public Path getWorkingDirectory() {
    return new Path(file.location()).getParent();
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) {
    throw new UnsupportedOperationException("read-only");
  }

  /** Hadoop's positioned reads over Iceberg's seekable stream (one reader at a time). */
  private static final class Stream extends InputStream implements Seekable, PositionedReadable {
    private final SeekableInputStream in;

    Stream(SeekableInputStream in) {
      this.in = in;
    }

    @Override
    public int read() throws IOException {
      return in.read();
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      return in.read(buffer, offset, length);
    }

    @Override
    public void seek(long position) throws IOException {
      in.seek(position);
    }

    @Override
    public long getPos() throws IOException {
      return in.getPos();
    }

    @Override
    public boolean seekToNewSource(long targetPos) {
      return false;
    }

    @Override
    public int read(long position, byte[] buffer, int offset, int length) throws IOException {
      long resume = in.getPos();
      try {
        in.seek(position);
        return in.read(buffer, offset, length);
      } finally {
        in.seek(resume);
      }
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length)
        throws IOException {
      long resume = in.getPos();
      try {
        in.seek(position);
        int done = 0;
        while (done < length) {
          int n = in.read(buffer, offset + done, length - done);
          if (n < 0) {
            throw new java.io.EOFException("the file ends before " + (position + length));
          }
          done += n;
        }
      } finally {
        in.seek(resume);
      }
    }

    @Override
    public void readFully(long position, byte[] buffer) throws IOException {
      readFully(position, buffer, 0, buffer.length);
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
