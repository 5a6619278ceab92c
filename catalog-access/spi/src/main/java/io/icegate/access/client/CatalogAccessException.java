package io.icegate.access.client;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/**
 * The one failure type of the catalog-access boundary. Callers branch on {@link #code()}, never on
 * the message; messages name properties and operations but never carry secret values.
 *
 * <p>Unchecked so that it can cross provider libraries (Iceberg's REST client) that only propagate
 * runtime exceptions.
 */
public final class CatalogAccessException extends RuntimeException {

  /** Stable failure codes (seed 001 and seed 000 "Vended storage credentials"). */
  public enum Code {
    /** Configuration or credentials that stay wrong until someone changes them. */
    INVALID_CONFIGURATION(false),
    /** The operation is not offered by this provider (see {@link CatalogCapabilities}). */
    UNSUPPORTED(false),
    /** No provider, or more than one, is registered for the protocol. */
    PROVIDER_UNAVAILABLE(false),
    /** The endpoint resolves to an address the caller's outbound policy refuses. */
    ADDRESS_DENIED(false),
    /** The catalog could not be reached (DNS, connect, TLS, timeout, 5xx). */
    CONNECTION_FAILED(true),
    /** The catalog refused the configured authentication (401, bad client credentials). */
    AUTHENTICATION_FAILED(false),
    /** Authenticated but not allowed (403). */
    PERMISSION_DENIED(false),
    /** The namespace, table or view does not exist upstream. */
    NOT_FOUND(false),
    /** The catalog answered something this provider cannot use (including broken pagination). */
    UPSTREAM_PROTOCOL_ERROR(false),
    /** Vended credentials exist but none covers the table location. */
    CREDENTIAL_SCOPE_INVALID(false),
    /** Vended credentials have expired before they could be used. */
    CREDENTIAL_EXPIRED(true),
    /**
     * Credentials are configured but momentarily unresolvable (a superseded secret generation, a
     * transient refresh failure with nothing still valid); a retry may clear it.
     */
    CREDENTIAL_UNAVAILABLE(true),
    /**
     * Storage credentials for one object could not be vended or are unusable (vending refused,
     * none vended, no expiry), so its storage could not be read this time; a retry may clear it.
     */
    CREDENTIAL_VENDING_FAILED(true),
    /** The object store refused or failed a read made with the vended credentials. */
    STORAGE_ACCESS_FAILED(false),
    /** The client or registration was closed. */
    CLOSED(false);

    private final boolean retryable;

    Code(boolean retryable) {
      this.retryable = retryable;
    }

    /** Whether repeating the same call later may succeed without a configuration change. */
    public boolean retryable() {
      return retryable;
    }
  }

  private final Code code;
  private final String detail;

  public CatalogAccessException(Code code, String message) {
    this(code, message, null);
  }

  public CatalogAccessException(Code code, String message, Throwable cause) {
    super(Objects.requireNonNull(code, "code") + ": " + message, cause);
    this.code = code;
    this.detail = message;
  }

  /**
   * A {@code CONNECTION_FAILED} that names the endpoint which could not be reached, so an operator
   * reading an Overlay's {@code lastError} sees where the gateway tried to connect: the host and
   * port only (user-info, path and query may carry secrets and are left out), and the type of the
   * innermost failure (e.g. {@code ConnectException}, {@code UnknownHostException}).
   *
   * @param what the kind of endpoint, e.g. {@code "the catalog"}
   * @param target the URI the request went to
   */
  public static CatalogAccessException unreachable(String what, URI target, Throwable failure) {
    return new CatalogAccessException(Code.CONNECTION_FAILED, "cannot reach " + what + " at "
        + hostAndPort(target) + " (" + failureKind(failure) + ")", failure);
  }

  /**
   * A {@code CONNECTION_FAILED} for an endpoint that was reached but answered a server error
   * (5xx): retryable, and the fault is the endpoint's, not the caller's configuration. Named by
   * host and port only, as {@link #unreachable}, with the status the endpoint answered.
   *
   * @param what the kind of endpoint, e.g. {@code "the OAuth2 token endpoint"}
   * @param target the URI the request went to
   * @param status the HTTP status it answered
   */
  public static CatalogAccessException serverError(String what, URI target, int status) {
    return new CatalogAccessException(Code.CONNECTION_FAILED,
        what + " at " + hostAndPort(target) + " failed (HTTP " + status + ")");
  }

  /**
   * An {@code INVALID_CONFIGURATION} for an endpoint whose server answered that nothing is served
   * at the configured path (404, 405, 410): the caller's configuration points at the wrong place.
   * Named by host and port only, as {@link #unreachable}.
   *
   * @param what the kind of endpoint, e.g. {@code "the OAuth2 token endpoint"}
   * @param target the URI the request went to
   * @param status the HTTP status it answered
   * @param check what to check, e.g. the property that sets the address
   */
  public static CatalogAccessException notServedAt(String what, URI target, int status,
      String check) {
    return new CatalogAccessException(Code.INVALID_CONFIGURATION, what + " at "
        + hostAndPort(target) + " answered HTTP " + status + ": nothing serves it there (" + check
        + ")");
  }

  /**
   * What an OAuth2 token endpoint's HTTP status says where the status alone tells it, for every
   * provider alike: a 5xx or a 429 is the endpoint's failure or rate limit ({@link #serverError},
   * retryable); a 404, 405 or 410 means nothing serves tokens at the configured address ({@link
   * #notServedAt}, the Integration's configuration). Empty for any other status: the caller's own
   * OAuth2 handling (a refused client, an error code in the body, a success).
   *
   * @param tokenEndpoint the URI the token request went to
   * @param status the HTTP status it answered
   */
  public static Optional<CatalogAccessException> ofTokenEndpointStatus(
      URI tokenEndpoint, int status) {
    String what = "the OAuth2 token endpoint";
    if (status >= 500 && status <= 599 || status == 429) {
      return Optional.of(serverError(what, tokenEndpoint, status));
    }
    if (status == 404 || status == 405 || status == 410) {
      return Optional.of(notServedAt(what, tokenEndpoint, status,
          "check the Integration's tokenUri (oauth2-server-uri), or its uri when that is not set"));
    }
    return Optional.empty();
  }

  /**
   * {@link #unreadableAnswer} of an OAuth2 token endpoint whose success is no token response (an
   * HTML sign-in page, JSON without a token), as every provider reports it.
   *
   * @param tokenEndpoint the URI the token request went to
   */
  public static CatalogAccessException unreadableTokenAnswer(URI tokenEndpoint) {
    return unreadableAnswer("the OAuth2 token endpoint", tokenEndpoint, "an OAuth2 token response",
        "check that the Integration's tokenUri (oauth2-server-uri) is a token endpoint");
  }

  /**
   * An {@code UPSTREAM_PROTOCOL_ERROR} for an endpoint that answered a success whose body is not
   * what the protocol answers there (an HTML sign-in page, a proxy's page, another API's JSON):
   * the address most likely points at something else, so repeating the call will not help. Named
   * by host and port only, as {@link #unreachable}. Neither the body nor the parser's failure is
   * kept: a token response that does not parse may still hold a token, and the parser's message
   * quotes what it read.
   *
   * @param what the kind of endpoint, e.g. {@code "the OAuth2 token endpoint"}
   * @param target the URI the request went to
   * @param expected what the body should have been, e.g. {@code "an OAuth2 token response"}
   * @param check what to check, e.g. the property that sets the address
   */
  public static CatalogAccessException unreadableAnswer(String what, URI target, String expected,
      String check) {
    return new CatalogAccessException(Code.UPSTREAM_PROTOCOL_ERROR, what + " at "
        + hostAndPort(target) + " answered a body that is not " + expected + " (" + check + ")");
  }

  /**
   * The failure in words and the type that says it, e.g. {@code connection refused:
   * ConnectException}; else the innermost type. Not simply the innermost: java.net.http's refused
   * connection is a {@code ConnectException} whose cause is a {@code ClosedChannelException},
   * which told an operator nothing.
   */
  static String failureKind(Throwable failure) {
    Throwable root = failure;
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String kind = t instanceof java.net.UnknownHostException ? "unknown host"
          : t instanceof java.net.ConnectException ? "connection refused"
          : t instanceof java.net.NoRouteToHostException ? "no route to host"
          : t instanceof java.net.http.HttpTimeoutException
              || t instanceof java.net.SocketTimeoutException ? "timed out"
          : t instanceof javax.net.ssl.SSLException ? "TLS failure"
          : null;
      if (kind != null) {
        return kind + ": " + t.getClass().getSimpleName();
      }
      root = t;
    }
    return root.getClass().getSimpleName();
  }

  /** {@code host:port}, the port from the scheme when the URI has none; IPv6 in brackets. */
  static String hostAndPort(URI target) {
    String host = target.getHost() == null ? "?" : target.getHost();
    int port = target.getPort();
    if (port < 0) {
      port = "http".equalsIgnoreCase(target.getScheme()) ? 80 : 443;
    }
    return (host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host) + ":" + port;
  }

  public Code code() {
    return code;
  }

  /** The message without the code in front: for a failure that wraps this one in its words. */
  public String detail() {
    return detail;
  }

  public boolean retryable() {
    return code.retryable();
  }
}
