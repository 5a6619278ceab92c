package io.icegate.overlay.tablevalidation;

import io.icegate.access.client.CatalogClient;
import java.util.function.Supplier;

/**
 * An upstream client opened on first use (many Tables need none: no snapshot, or local files) by
 * whichever thread asks first, shared after that, and closed with this.
 */
final class LazyClient implements AutoCloseable {
  private final Supplier<CatalogClient> open;
  private CatalogClient client;

  LazyClient(Supplier<CatalogClient> open) {
    this.open = open;
  }

  synchronized CatalogClient get() {
    if (client == null) {
      client = open.get();
    }
    return client;
  }

  @Override
  public synchronized void close() {
    if (client != null) {
      client.close();
    }
  }
}
