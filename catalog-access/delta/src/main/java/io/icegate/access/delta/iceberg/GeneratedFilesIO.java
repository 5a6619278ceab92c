package io.icegate.access.delta.iceberg;

import java.io.IOException;
import java.util.function.Supplier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;

/**
 * The Catalog's FileIO as a capture writes its generated files through it: a write the warehouse
 * refuses surfaces as {@link GeneratedFileException}, whatever wraps it on the way up (iceberg-core's
 * writers, {@link BackgroundUploads}), so it is not reported as a failure to read the log. An
 * {@link AlreadyExistsException} passes as it is: callers act on it (a taken snapshot id).
 */
public final class GeneratedFilesIO extends ForwardingFileIO {

  /** @param io the Catalog's FileIO; not closed here (its owner closes it) */
  public GeneratedFilesIO(FileIO io) {
    super(io);
  }

  @Override
  public OutputFile newOutputFile(String path) {
    OutputFile file = delegate().newOutputFile(path);
    return openedThrough(file, open -> opened(file, open));
  }

  private static PositionOutputStream opened(OutputFile file, Supplier<PositionOutputStream> open) {
    PositionOutputStream out;
    try {
      out = open.get();
    } catch (AlreadyExistsException e) {
      throw e;
    } catch (RuntimeException e) {
      throw GeneratedFileException.of(file.location(), e);
    }
    return new PositionOutputStream() {
      @Override
      public long getPos() throws IOException {
        return out.getPos();
      }

      @Override
      public void write(int b) {
        try {
          out.write(b);
        } catch (IOException | RuntimeException e) {
          throw GeneratedFileException.of(file.location(), e);
        }
      }

      @Override
      public void write(byte[] b, int off, int len) {
        try {
          out.write(b, off, len);
        } catch (IOException | RuntimeException e) {
          throw GeneratedFileException.of(file.location(), e);
        }
      }

      @Override
      public void flush() {
        try {
          out.flush();
        } catch (IOException | RuntimeException e) {
          throw GeneratedFileException.of(file.location(), e);
        }
      }

      @Override
      public void close() {
        try {
          out.close();
        } catch (IOException | RuntimeException e) {
          throw GeneratedFileException.of(file.location(), e);
        }
      }
    };
  }
}
