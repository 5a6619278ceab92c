package io.icegate.access.delta.iceberg;

import io.delta.kernel.engine.Engine;
import io.delta.kernel.engine.ExpressionHandler;
import io.delta.kernel.engine.FileReadRequest;
import io.delta.kernel.engine.FileSystemClient;
import io.delta.kernel.engine.JsonHandler;
import io.delta.kernel.engine.MetricsReporter;
import io.delta.kernel.engine.ParquetHandler;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.List;

/**
 * A Kernel engine that is another engine, with its file system client given: the base of an engine
 * that answers some file system calls itself ({@link NextCommitProbe#listing}) and forwards the
 * rest, reading included.
 */
class ForwardingEngine implements Engine {

  private final Engine engine;
  private final FileSystemClient files;

  ForwardingEngine(Engine engine, FileSystemClient files) {
    this.engine = engine;
    this.files = files;
  }

  @Override
  public ExpressionHandler getExpressionHandler() {
    return engine.getExpressionHandler();
  }

  @Override
  public JsonHandler getJsonHandler() {
    return engine.getJsonHandler();
  }

  @Override
  public FileSystemClient getFileSystemClient() {
    return files;
  }

  @Override
  public ParquetHandler getParquetHandler() {
    return engine.getParquetHandler();
  }

  @Override
  public List<MetricsReporter> getMetricsReporters() {
    return engine.getMetricsReporters();
  }

  /** A file system client that forwards every call; subclasses answer some themselves. */
  static class Files implements FileSystemClient {
    /** The client forwarded to. */
    protected final FileSystemClient files;

    Files(FileSystemClient files) {
      this.files = files;
    }

    @Override
    public CloseableIterator<FileStatus> listFrom(String filePath) throws IOException {
      return files.listFrom(filePath);
    }

    @Override
    public String resolvePath(String path) throws IOException {
      return files.resolvePath(path);
    }

    @Override
    public CloseableIterator<ByteArrayInputStream> readFiles(
        CloseableIterator<FileReadRequest> readRequests) throws IOException {
      return files.readFiles(readRequests);
    }

    @Override
    public boolean mkdirs(String path) throws IOException {
      return files.mkdirs(path);
    }

    @Override
    public boolean delete(String path) throws IOException {
      return files.delete(path);
    }

    @Override
    public FileStatus getFileStatus(String path) throws IOException {
      return files.getFileStatus(path);
    }

    @Override
    public void copyFileAtomically(String srcPath, String destPath, boolean overwrite)
        throws IOException {
      files.copyFileAtomically(srcPath, destPath, overwrite);
    }
  }
}
