package io.icegate.filecheck;

/**
 * A location {@link ValidationFileIO} will not open: no vended credentials for an object-store
 * location, a {@code file:} location while local files are not allowed, or a scheme it cannot
 * read. The message is a sentence for an operator and never names a credential.
 */
public final class StorageRefusedException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public StorageRefusedException(String message) {
    super(message);
  }
}
