package io.icegate.access.delta.iceberg;

import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;

/**
 * A FileIO that hands each call to another one, its delegate: the base of the decorators a
 * capture's FileIO is wrapped in (held uploads, the manifest-list cache, write leases), so each
 * overrides only the calls it changes. iceberg-core 1.10.1 has no such base (its {@code
 * DelegateFileIO} only names capabilities a FileIO must have, it forwards nothing).
 *
 * <p>Forwarded: {@code newInputFile(path)}, {@code newInputFile(path, length)}, {@code
 * newOutputFile}, {@code deleteFile(path)} and {@code properties()}. Left to FileIO's defaults on
 * purpose: {@code newInputFile} of a data, delete or manifest file and {@code deleteFile} of an
 * input or output file, because those defaults call {@code newInputFile(path, length)} and
 * {@code deleteFile(path)} on this object, so a subclass's override covers them too (forwarding
 * them would pass the decorator by); {@code initialize}, because the delegate comes initialized by
 * its owner. {@code close()} does nothing: the delegate is its owner's to close. The delegate's
 * other interfaces (bulk or prefix operations) are not offered through the decorator.
 */
public abstract class ForwardingFileIO implements FileIO {

  private final FileIO delegate;

  protected ForwardingFileIO(FileIO delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /** The FileIO every call not overridden goes to. */
  protected final FileIO delegate() {
    return delegate;
  }

  @Override
  public InputFile newInputFile(String path) {
    return delegate.newInputFile(path);
  }

  @Override
  public InputFile newInputFile(String path, long length) {
    return delegate.newInputFile(path, length);
  }

  @Override
  public OutputFile newOutputFile(String path) {
    return delegate.newOutputFile(path);
  }

  @Override
  public void deleteFile(String path) {
    delegate.deleteFile(path);
  }

  @Override
  public Map<String, String> properties() {
    return delegate.properties();
  }

  /**
   * {@code file} with its streams opened through {@code open}, which is handed the file's own
   * {@code create} or {@code createOrOverwrite} and returns the stream callers get (held, kept,
   * its failures named); its location and input file are {@code file}'s.
   */
  public static OutputFile openedThrough(OutputFile file,
      Function<Supplier<PositionOutputStream>, PositionOutputStream> open) {
    return new OutputFile() {
      @Override
      public PositionOutputStream create() {
        return open.apply(file::create);
      }

      @Override
      public PositionOutputStream createOrOverwrite() {
        return open.apply(file::createOrOverwrite);
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

  @Override
  public void close() {
    // the delegate is its owner's to close; a decorator holding something of its own overrides
  }
}
