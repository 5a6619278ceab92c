package io.icegate.gateway.fileio;

import io.icegate.gateway.dependency.DependencyUnavailableException;
import java.io.IOException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkServiceException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The object store refused a write the gateway needed (wrong keys, a missing bucket, a checksum it
 * does not accept) or could not be reached: a failed dependency, answered as Iceberg's 503 {@code
 * ServiceUnavailableException} whose message names the operation, the location and the store's
 * error code or status, never a credential or signature (the SDK's own message is not passed on).
 *
 * <p>{@link #wrapping} logs the one WARN line; the HTTP layer passes the message on and logs
 * nothing more ({@link DependencyUnavailableException}). For a commit, iceberg-core's client reads a 500, 502, 503 or
 * 504 as "commit state unknown" ({@code ErrorHandlers}); that is safe here because the write
 * failed before the compare-and-set of the metadata pointer, so the table is unchanged. 503
 * rather than 502: the client's default handler maps 503 to {@code ServiceUnavailableException}
 * and a 502 only to a generic {@code RESTException}.
 */
public final class ObjectStoreUnavailableException extends DependencyUnavailableException {
  private static final Logger LOG = LoggerFactory.getLogger(ObjectStoreUnavailableException.class);
  private static final int MAX_CAUSES = 16;

  private ObjectStoreUnavailableException(String message) {
    super("%s", message);
  }

  /**
   * {@code error} as this exception when an AWS SDK failure (S3FileIO's client) is among its
   * causes, else {@code error} itself. Logs one WARN line (no stack trace) when it translates.
   *
   * @param operation what the client asked for, e.g. {@code create table ns.t}
   * @param location the location written under, e.g. the table's metadata directory
   */
  public static RuntimeException wrapping(String operation, String location,
      RuntimeException error) {
    return translated(operation, "writing under", location, error);
  }

  /**
   * As {@link #wrapping}, for a metadata file the gateway had to read: {@code error} as this
   * exception when an AWS SDK failure is among its causes, except Iceberg's {@code
   * NotFoundException} (a missing file keeps its own meaning).
   *
   * @param location the file read
   */
  public static RuntimeException reading(String operation, String location,
      RuntimeException error) {
    return error instanceof org.apache.iceberg.exceptions.NotFoundException
        ? error
        : translated(operation, "reading", location, error);
  }

  private static RuntimeException translated(String operation, String verb, String location,
      RuntimeException error) {
    String reason = null;
    Throwable cause = error;
    for (int depth = 0; cause != null && depth < MAX_CAUSES && reason == null; depth++) {
      if (cause instanceof SdkServiceException refused) {
        reason = "the object store refused " + verb + " " + location + ": " + code(refused);
      } else if (cause instanceof SdkClientException failed) {
        reason = "the object store for " + location + " could not be reached ("
            + clientFailure(failed) + ")";
      }
      cause = cause.getCause();
    }
    if (reason == null) {
      return error;
    }
    String message = operation + ": " + reason;
    LOG.warn("{}", message);
    return new ObjectStoreUnavailableException(message);
  }

  /** The store's error code and status: {@code NoSuchBucket (HTTP 404)}. */
  private static String code(SdkServiceException refused) {
    String code = null;
    if (refused instanceof AwsServiceException aws && aws.awsErrorDetails() != null) {
      code = aws.awsErrorDetails().errorCode();
    }
    // A HEAD request's refusal has no body, so no code: the status says what there is.
    return (code == null || code.isBlank() ? "no error code" : code)
        + " (HTTP " + refused.statusCode() + ")";
  }

  /** {@code unreachable: ConnectException} for an I/O failure, else the SDK exception's type. */
  private static String clientFailure(SdkClientException failed) {
    String io = null;
    Throwable cause = failed.getCause();
    for (int depth = 0; cause != null && depth < MAX_CAUSES; depth++) {
      if (cause instanceof IOException) {
        io = cause.getClass().getSimpleName(); // the innermost one
      }
      cause = cause.getCause();
    }
    return io != null ? "unreachable: " + io : "client failure: " + failed.getClass().getSimpleName();
  }
}
