package io.icegate.gateway.server;

/**
 * Listener settings of the HTTP server.
 *
 * @param bind address to listen on, e.g. {@code 127.0.0.1}
 * @param port TCP port; 0 picks a free one
 * @param maxRequestBytes largest request body accepted, in bytes
 */
public record HttpSettings(String bind, int port, long maxRequestBytes) {
  /** Largest request body by default: 8 MiB, far above any Iceberg commit a client sends. */
  public static final long DEFAULT_MAX_REQUEST_BYTES = 8L * 1024 * 1024;

  public HttpSettings {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be in 0..65535: " + port);
    }
    if (maxRequestBytes <= 0) {
      throw new IllegalArgumentException("maxRequestBytes must be positive");
    }
  }
}
