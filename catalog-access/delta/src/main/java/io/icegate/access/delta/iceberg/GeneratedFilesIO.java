package io.icegate.access.delta.iceberg;

import java.io.IOException;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
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
    return new OutputFile() {
      @Override
      public PositionOutputStream create() {
        return opened(file, false);
      }

      @Override
      public PositionOutputStream createOrOverwrite() {
        return opened(file, true);
      }

      @Override
      public String location() {
        return file.location();
      }

      @Override
      public InputFile toInputFile() {
        return file.toInputFile();
      }
    };
  }

  private static PositionOutputStream opened(OutputFile file, boolean overwrite) {
    PositionOutputStream out;
    try {
      out = overwrite ? file.createOrOverwrite() : file.create();
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
