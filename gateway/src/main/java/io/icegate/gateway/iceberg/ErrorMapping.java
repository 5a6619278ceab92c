package io.icegate.gateway.iceberg;

import com.fasterxml.jackson.core.JacksonException;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.error.RetryAfter;
import io.icegate.core.store.CommitUnknownResultException;
import io.icegate.gateway.catalog.RepositoryErrors;
import io.icegate.gateway.catalog.RequestTooLargeException;
import io.icegate.core.store.KvStoreException;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.apache.iceberg.exceptions.UnprocessableEntityException;
import org.apache.iceberg.exceptions.ValidationException;
import java.util.OptionalInt;
import org.apache.iceberg.rest.responses.ErrorResponse;

/**
 * Maps an exception raised while serving an Iceberg REST request to the status code and error
 * type of the Iceberg REST OpenAPI specification (the {@code ErrorModel} responses of each
 * operation). The type is the exception's simple name, which iceberg-core's client maps back to
 * the same exception class ({@code ErrorHandlers}).
 */
public final class ErrorMapping {

  private ErrorMapping() {}

  /** The error body for {@code error}; its {@code code} is the HTTP status to send. */
  public static ErrorResponse toResponse(Throwable error) {
    if (error instanceof KvStoreException failure) {
      // a store failure no repository translated (exhausted retries, the store gone): its
      // catalogue code, e.g. 503 STORE_CONTENTION rather than a bare "internal error"
      ErrorCode code = ErrorCode.forStoreFailure(failure.kind());
      error = new IcegateException(code, null, code.template(), failure);
    }
    if (error instanceof UnsupportedOperationException && isUpdateOfTheOtherKind(error)) {
      // the client's body, e.g. a view's add-view-version sent to a table (not a 500)
      error = new BadRequestException(error, "%s", error.getMessage());
    }
    if (error instanceof IcegateException coded) {
      // e.g. a model record rejecting a name before any repository call
      error = RepositoryErrors.toIceberg(coded);
    }
    int status = status(error);
    String type = type(error);
    // 5xx messages may carry internals and are hidden, except those written for the client:
    // the catalogue's store answers are templates without internals.
    boolean clientFacing = error instanceof CommitStateUnknownException
        || error instanceof io.icegate.gateway.dependency.DependencyUnavailableException
        || error.getCause() instanceof IcegateException coded
            && (coded.code() == ErrorCode.STORE_CONTENTION
                || coded.code() == ErrorCode.STORE_UNAVAILABLE);
    String message = status >= 500 && !clientFacing
        ? "internal error"
        : String.valueOf(error.getMessage());
    return ErrorResponse.builder().responseCode(status).withType(type).withMessage(message).build();
  }

  /**
   * The {@code Retry-After} seconds for {@code error} ({@link RetryAfter}): by the catalogue code
   * it or a cause carries (an Iceberg exception mapped from one keeps it as its cause), or by the
   * kind of a storage failure.
   */
  public static OptionalInt retryAfter(Throwable error) {
    for (Throwable e = error; e != null; e = e.getCause()) {
      if (e instanceof IcegateException coded) {
        return RetryAfter.seconds(coded.code());
      }
      if (e instanceof KvStoreException failure) {
        return RetryAfter.seconds(ErrorCode.forStoreFailure(failure.kind()));
      }
    }
    return OptionalInt.empty();
  }

  /**
   * The error type of an HTTP-level failure with {@code status} (no exception behind it): 404
   * NotFoundException, 405 MethodNotAllowed, 413 the type of every 413 ({@link
   * RequestTooLargeException}), 414 URITooLong, another 4xx BadRequestException, a 5xx
   * InternalServerError.
   */
  public static String typeOf(int status) {
    return switch (status) {
      case 404 -> NotFoundException.class.getSimpleName();
      case 405 -> "MethodNotAllowed";
      case 413 -> RequestTooLargeException.class.getSimpleName();
      case 414 -> "URITooLong";
      default -> status >= 500 ? "InternalServerError" : BadRequestException.class.getSimpleName();
    };
  }

  /** A response for an HTTP-level failure (unknown route, wrong method, body too large...). */
  public static ErrorResponse of(int status, String type, String message) {
    return ErrorResponse.builder().responseCode(status).withType(type).withMessage(message).build();
  }

  static int status(Throwable error) {
    if (error instanceof RequestTooLargeException) {
      return 413;
    }
    if (error instanceof NoSuchNamespaceException
        || error instanceof NoSuchTableException
        || error instanceof NoSuchViewException
        || error instanceof NotFoundException) {
      return 404;
    }
    if (error instanceof AlreadyExistsException
        || error instanceof CommitFailedException
        || error instanceof NamespaceNotEmptyException) {
      return 409;
    }
    if (error instanceof NotAuthorizedException) {
      return 401;
    }
    if (error instanceof ForbiddenException) {
      return 403;
    }
    if (error instanceof UnprocessableEntityException) {
      return 422;
    }
    if (error instanceof ServiceUnavailableException) {
      return 503;
    }
    if (error instanceof CommitStateUnknownException
        || error instanceof CommitUnknownResultException) {
      return 500;
    }
    if (error instanceof BadRequestException
        || error instanceof ValidationException
        || error instanceof IllegalArgumentException
        || error instanceof JacksonException
        || error instanceof NullPointerException && isRequestParsing(error)) {
      return 400;
    }
    if (error instanceof KvStoreException) {
      return 503;
    }
    return 500;
  }

  private static String type(Throwable error) {
    if (error instanceof CommitUnknownResultException
        || error instanceof CommitStateUnknownException) {
      return CommitStateUnknownException.class.getSimpleName();
    }
    if (error instanceof JacksonException) {
      return BadRequestException.class.getSimpleName();
    }
    if (error instanceof IllegalArgumentException) {
      // iceberg-core's client rethrows a 400 of this type as IllegalArgumentException (what its
      // own catalogs throw for invalid arguments), any other 400 as BadRequestException.
      return IllegalArgumentException.class.getSimpleName();
    }
    if (error instanceof KvStoreException
        || error instanceof io.icegate.gateway.dependency.DependencyUnavailableException) {
      // the spec's type for a 503, not our subclass's name
      return ServiceUnavailableException.class.getSimpleName();
    }
    int status = status(error);
    if (status == 500) {
      return "InternalServerError";
    }
    return error.getClass().getSimpleName();
  }

  /**
   * Whether {@code error} is iceberg-core's refusal to apply a table's update to a view or a
   * view's to a table: {@code MetadataUpdate}'s default {@code applyTo} throws it. Judged by the
   * throwing frame, so an UnsupportedOperationException of a server bug (an immutable collection
   * written to) stays a 500.
   */
  private static boolean isUpdateOfTheOtherKind(Throwable error) {
    StackTraceElement[] frames = error.getStackTrace();
    return frames.length > 0
        && frames[0].getClassName().equals(org.apache.iceberg.MetadataUpdate.class.getName())
        && frames[0].getMethodName().equals("applyTo");
  }

  // Iceberg's request parsers reject missing required members with NullPointerException
  // (Preconditions.checkNotNull) from their fromJson methods; that is the client's fault.
  private static boolean isRequestParsing(Throwable error) {
    for (StackTraceElement frame : error.getStackTrace()) {
      String name = frame.getClassName();
      if (name.endsWith("Parser") || name.contains("RESTSerializers") || name.contains("Request")) {
        return true;
      }
      if (name.startsWith("io.icegate")) {
        return false;
      }
    }
    return false;
  }
}
