package io.icegate.gateway.catalog;

import org.apache.iceberg.exceptions.BadRequestException;

/**
 * A request whose writes exceed the store's limits (a value over 100 kB, a transaction over 10
 * MB): answered 413, a client error that resending unchanged cannot fix.
 */
public final class RequestTooLargeException extends BadRequestException {
  private static final long serialVersionUID = 1L;

  public RequestTooLargeException(String message) {
    super("%s", message);
  }
}
