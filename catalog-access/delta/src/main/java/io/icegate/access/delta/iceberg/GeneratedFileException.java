package io.icegate.access.delta.iceberg;

import io.icegate.access.storage.s3.VendedS3Client;
import java.io.IOException;
import java.io.UncheckedIOException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * A file a capture generates (manifest, manifest list, delete file) that the Catalog's warehouse
 * did not take: the warehouse's failure, not the upstream's. Told apart from a log read so the
 * reconcile report points at the warehouse (its endpoint, keys, bucket) instead of the upstream's
 * log and vended credentials, where the same store errors read alike (found against a real Unity
 * server: a warehouse refusing the manifest PUT was reported as "reading the Delta log failed").
 */
public final class GeneratedFileException extends UncheckedIOException {

  GeneratedFileException(String location, Throwable failure) {
    super(
        "writing generated file " + location + " to the Catalog's warehouse failed: "
            + describe(failure),
        failure instanceof IOException io ? io : new IOException(failure));
  }

  /** Itself when {@code failure} already is one (a retried close, an awaited upload), else new. */
  static GeneratedFileException of(String location, Throwable failure) {
    return failure instanceof GeneratedFileException generated
        ? generated
        : new GeneratedFileException(location, failure);
  }

  /** The store's status and error code, else the innermost failure; never a request. */
  private static String describe(Throwable failure) {
    Throwable innermost = failure;
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof S3Exception) {
        return VendedS3Client.describe(t);
      }
      innermost = t;
    }
    return innermost.getClass().getSimpleName()
        + (innermost.getMessage() == null ? "" : " " + innermost.getMessage());
  }
}
