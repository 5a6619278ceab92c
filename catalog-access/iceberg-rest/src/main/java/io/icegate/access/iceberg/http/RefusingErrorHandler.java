package io.icegate.access.iceberg.http;

import io.icegate.access.client.CatalogAccessException;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.iceberg.rest.ErrorHandler;
import org.apache.iceberg.rest.responses.ErrorResponse;

/**
 * An error handler in front of one of iceberg-core's: a status that alone says what failed
 * becomes the {@link CatalogAccessException} {@link #refusal} names, every other answer goes to
 * iceberg-core's handler unchanged. An {@link ErrorHandler} rather than a plain consumer:
 * iceberg-core parses an error body only through an {@code ErrorHandler}'s own {@link
 * #parseResponse}, which is passed on.
 */
abstract class RefusingErrorHandler extends ErrorHandler {

  private final Consumer<ErrorResponse> delegate;

  RefusingErrorHandler(Consumer<ErrorResponse> delegate) {
    this.delegate = delegate;
  }

  /** The failure {@code status} alone says, or empty to leave the answer to iceberg-core. */
  abstract Optional<CatalogAccessException> refusal(int status);

  @Override
  public final ErrorResponse parseResponse(int code, String json) {
    if (delegate instanceof ErrorHandler handler) {
      return handler.parseResponse(code, json);
    }
    return ErrorResponse.builder().responseCode(code).withMessage(json).build();
  }

  @Override
  public final void accept(ErrorResponse error) {
    Integer status = error.code();
    if (status != null) {
      Optional<CatalogAccessException> refused = refusal(status);
      if (refused.isPresent()) {
        throw refused.get();
      }
    }
    delegate.accept(error);
  }
}
