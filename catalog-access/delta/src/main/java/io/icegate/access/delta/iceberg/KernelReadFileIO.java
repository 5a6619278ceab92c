package io.icegate.access.delta.iceberg;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * Delta Kernel's file system seen as a read-only Iceberg {@link FileIO}, so that Iceberg's Parquet
 * footer reader ({@code ParquetUtil.fileMetrics}) reads an upstream data file through exactly the
 * client (and so exactly the vended credentials) the Delta log was read with. Writing or deleting
 * upstream files is refused: icegate never changes an upstream table.
 */
public final class KernelReadFileIO implements FileIO {

  private final io.delta.kernel.defaults.engine.fileio.FileIO files;

  public KernelReadFileIO(io.delta.kernel.defaults.engine.fileio.FileIO files) {
    this.files = files;
  }

  @Override
  public InputFile newInputFile(String path) {
    return newInputFile(path, -1);
  }

  @Override
  public InputFile newInputFile(String path, long length) {
    return new InputFile() {
      private long known = length;

      @Override
      public long getLength() {
        if (known < 0) {
          try {
            known = files.getFileStatus(path).getSize();
          } catch (FileNotFoundException e) {
            throw new NotFoundException(e, "%s does not exist", path);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
        return known;
      }

      @Override
      public SeekableInputStream newStream() {
        try {
          return new Stream(files.newInputFile(path, getLength()).newStream());
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }

      @Override
      public String location() {
        return path;
      }

      @Override
      public boolean exists() {
        try {
          files.getFileStatus(path);
          return true;
        } catch (FileNotFoundException e) {
          return false;
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    };
  }

  @Override
  public OutputFile newOutputFile(String path) {
    throw new UnsupportedOperationException("upstream storage is read-only: " + path);
  }

  @Override
  public void deleteFile(String path) {
    throw new UnsupportedOperationException("upstream storage is read-only: " + path);
  }

  /** Kernel's seekable stream as Iceberg's. */
  private static final class Stream extends SeekableInputStream {
    private final io.delta.kernel.defaults.engine.fileio.SeekableInputStream in;

    Stream(io.delta.kernel.defaults.engine.fileio.SeekableInputStream in) {
      this.in = in;
    }

    @Override
    public long getPos() throws IOException {
      return in.getPos();
    }

    @Override
    public void seek(long newPos) throws IOException {
      in.seek(newPos);
    }

    @Override
    public int read() throws IOException {
      return in.read();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return in.read(b, off, len);
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
