package io.icegate.access.iceberg.http;

import io.icegate.access.client.CatalogAccessException;
import java.net.URI;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.iceberg.rest.responses.ErrorResponse;

/**
 * The error handler of the catalog's config request ({@code GET v1/config}), in front of
 * iceberg-core's default one: that handler turns a 404 into a bare {@code RESTException}
 * ("Unable to process: ..."), which session setup reports as a retryable connection failure. A
 * tryout pointed an Integration at a warehouse its upstream does not serve (icegate and Polaris
 * answer 404 there), and at {@code .../v1} (a 404 for {@code v1/v1/config}): both read "the
 * upstream catalog is unavailable; retry", and the scheduler backed off as for an outage. A 404,
 * 405 or 410 says the Integration's configuration points at nothing
 * ({@link CatalogAccessException#notServedAt}, not retryable); every other answer goes to
 * iceberg-core's handler unchanged.
 */
final class ConfigEndpointErrors extends RefusingErrorHandler {

  private final URI catalog;
  private final String warehouse;

  /** @param warehouse the warehouse the request asked for, or {@code null} */
  ConfigEndpointErrors(Consumer<ErrorResponse> delegate, URI catalog, String warehouse) {
    super(delegate);
    this.catalog = catalog;
    this.warehouse = warehouse;
  }

  @Override
  Optional<CatalogAccessException> refusal(int status) {
    if (status != 404 && status != 405 && status != 410) {
      return Optional.empty();
    }
    // the upstream's message is not quoted: it may echo the request
    return Optional.of(CatalogAccessException.notServedAt("the catalog's config endpoint",
        catalog, status, "check the Integration's uri, the catalog's base URI without /v1"
            + (warehouse == null ? ", and whether it needs a warehouse property"
                : ", and its warehouse property: is warehouse " + warehouse
                    + " served there?")));
  }
}
