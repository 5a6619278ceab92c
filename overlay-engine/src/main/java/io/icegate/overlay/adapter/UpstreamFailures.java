package io.icegate.overlay.adapter;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;

/**
 * Maps catalog-access failures onto the error catalogue, so the admin API answers them as
 * problem+json with a stable code. SPI messages name properties and operations but never carry
 * secret values (the SPI's contract), so they are passed on as the detail.
 */
public final class UpstreamFailures {
  private UpstreamFailures() {}

  /**
   * The catalogue exception for {@code failure}: {@code NOT_FOUND} for a missing upstream object,
   * {@code INTEGRATION_NOT_USABLE} (422) for configuration the Integration must change, {@code
   * UPSTREAM_UNAVAILABLE} (503) for retryable failures, {@code UPSTREAM_FAILED} (502) otherwise.
   *
   * @param subject what was asked for, for NOT_FOUND (e.g. {@code namespace [a, b]}; the message reads "upstream namespace [a, b] does not exist")
   */
  public static IcegateException toIcegate(CatalogAccessException failure, String subject) {
    String reason = failure.getMessage();
    return switch (failure.code()) {
      case NOT_FOUND -> new IcegateException(ErrorCode.NOT_FOUND, null, "upstream", subject);
      case INVALID_CONFIGURATION, UNSUPPORTED, PROVIDER_UNAVAILABLE, ADDRESS_DENIED ->
          new IcegateException(ErrorCode.INTEGRATION_NOT_USABLE, null, reason);
      case CONNECTION_FAILED, CREDENTIAL_UNAVAILABLE, CREDENTIAL_EXPIRED ->
          new IcegateException(ErrorCode.UPSTREAM_UNAVAILABLE, null, reason);
      default -> new IcegateException(ErrorCode.UPSTREAM_FAILED, null, reason);
    };
  }
}
