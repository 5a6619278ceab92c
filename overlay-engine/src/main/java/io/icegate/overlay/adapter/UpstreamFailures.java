package io.icegate.overlay.adapter;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.connection.CatalogConnectionConfig;
import io.icegate.access.connection.CatalogProtocol;
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
  /**
   * The upstream catalog a connection reaches, as a NOT_FOUND subject: {@code catalog NAME} when
   * the connection names it (Unity's {@code catalog}, Iceberg REST's {@code warehouse}), else
   * {@code catalog at URI}. Issue 21: a catalog that does not exist is named, not reported as a
   * missing integration or root namespace.
   */
  public static String catalogSubject(CatalogConnectionConfig config) {
    String name = config.properties().get(
        config.protocol() == CatalogProtocol.UNITY ? "catalog" : "warehouse");
    return name != null ? "catalog " + name : "catalog at " + config.endpoint();
  }

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
