package io.icegate.access.iceberg.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.access.paging.PageTokenGuard;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.iceberg.exceptions.RESTException;
import org.apache.iceberg.rest.RESTClient;
import org.apache.iceberg.rest.auth.AuthSession;
import org.apache.iceberg.rest.responses.ErrorResponse;

/**
 * Wraps iceberg-core's {@code HTTPClient}: before every request it resolves the target host (the
 * catalog's, or the host of an absolute path such as an external OAuth2 token endpoint) and checks
 * every address against the caller's {@link OutboundAddressPolicy}, and it runs {@link
 * PageTokenGuard} on listings; what it answers passes through {@link UpstreamConfigFilter}, so the
 * upstream's configuration never names a class for iceberg-core to load.
 *
 * <p>{@link RESTClient} has one overload per verb and header/parser variant (18 in iceberg-core
 * 1.10); they differ only in what they pass through, so one {@link #invoke} serves them all: every
 * method whose first parameter is the request path is checked, a {@code get} with query parameters
 * also goes through the page guard, and then the same method runs on the delegate with the same
 * arguments (so the delegate's own overrides of default methods still apply). A request that
 * reaches no server becomes a {@code CONNECTION_FAILED} naming the endpoint's host and port; so does
 * a token request answered with a 5xx, with its status ({@link TokenEndpointErrors}). A config
 * request answered 404 is the Integration's configuration ({@link ConfigEndpointErrors}). A success
 * whose body is not the protocol's (an HTML page at the configured address) is an {@code
 * UPSTREAM_PROTOCOL_ERROR} naming the endpoint, not a retryable connection failure.
 *
 * <p>Limit: iceberg-core's HTTP client offers no DNS-resolver hook, so the connection itself
 * resolves the name again; the JVM's resolver cache ({@code networkaddress.cache.ttl}, 30 s by
 * default) normally returns the checked answer, but a rebinding DNS server with a zero TTL could
 * still race the check. Storage access (S3) does not have this gap: its client resolves through the
 * policy itself.
 */
public final class PolicyEnforcingRestClient implements InvocationHandler {

  private final RESTClient delegate;
  private final URI base;
  private final OutboundAddressPolicy policy;
  private final PageTokenGuard pages;
  private final UpstreamConfigFilter config;

  private PolicyEnforcingRestClient(
      RESTClient delegate,
      URI base,
      OutboundAddressPolicy policy,
      PageTokenGuard pages,
      UpstreamConfigFilter config) {
    this.delegate = delegate;
    this.base = base;
    this.policy = policy;
    this.pages = pages;
    this.config = config;
  }

  /**
   * Returns {@code delegate} behind the checks above.
   *
   * @param base the catalog endpoint; its host is checked for relative request paths
   * @param maxPages listing pages allowed per {@link PageTokenGuard}
   */
  public static RESTClient wrap(
      RESTClient delegate, URI base, OutboundAddressPolicy policy, int maxPages) {
    return wrap(delegate, base, policy, maxPages, new UpstreamConfigFilter(base.getHost()));
  }

  /**
   * As {@link #wrap(RESTClient, URI, OutboundAddressPolicy, int)}, with a {@code config} filter
   * shared by every client of one catalog session, so each ignored key is reported once.
   */
  public static RESTClient wrap(
      RESTClient delegate,
      URI base,
      OutboundAddressPolicy policy,
      int maxPages,
      UpstreamConfigFilter config) {
    return wrap(delegate, base, policy, new PageTokenGuard(maxPages), config);
  }

  private static RESTClient wrap(
      RESTClient delegate,
      URI base,
      OutboundAddressPolicy policy,
      PageTokenGuard pages,
      UpstreamConfigFilter config) {
    return (RESTClient)
        Proxy.newProxyInstance(
            RESTClient.class.getClassLoader(),
            new Class<?>[] {RESTClient.class},
            new PolicyEnforcingRestClient(delegate, base, policy, pages, config));
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    if (method.getDeclaringClass() == Object.class) {
      return objectMethod(proxy, method, args);
    }
    if (method.getName().equals("withAuthSession")) {
      // Iceberg derives per-session clients this way; they keep the same checks and page budget.
      return wrap(delegate.withAuthSession((AuthSession) args[0]), base, policy, pages, config);
    }
    Class<?>[] parameters = method.getParameterTypes();
    URI target = base;
    if (parameters.length > 0 && parameters[0] == String.class) {
      String path = (String) args[0];
      target = target(path);
      policy.resolve(target.getHost());
      if (method.getName().equals("get") && parameters.length > 1 && parameters[1] == Map.class) {
        @SuppressWarnings("unchecked")
        Map<String, String> queryParams = (Map<String, String>) args[1];
        pages.beforeGet(path, queryParams);
      }
    }
    boolean tokenRequest = method.getName().equals("postForm");
    if (tokenRequest && args[args.length - 1] instanceof Consumer<?> errorHandler) {
      @SuppressWarnings("unchecked")
      Consumer<ErrorResponse> handler = (Consumer<ErrorResponse>) errorHandler;
      args = args.clone();
      args[args.length - 1] = new TokenEndpointErrors(handler, target);
    } else if (configRequest(method, args)) {
      @SuppressWarnings("unchecked")
      Consumer<ErrorResponse> handler = (Consumer<ErrorResponse>) args[args.length - 1];
      @SuppressWarnings("unchecked")
      String warehouse = ((Map<String, String>) args[1]).get("warehouse");
      args = args.clone();
      args[args.length - 1] = new ConfigEndpointErrors(handler, target, warehouse);
    }
    try {
      return config.filter(method.invoke(delegate, args));
    } catch (InvocationTargetException e) {
      // iceberg-core posts forms only to the OAuth2 token endpoint, which may be another host.
      String what = tokenRequest ? "the OAuth2 token endpoint" : "the catalog";
      if (connectionFailure(e.getCause())) {
        // iceberg-core says only "Error occurred while processing GET request": name the endpoint.
        throw CatalogAccessException.unreachable(what, target, e.getCause());
      }
      if (unreadableSuccess(e.getCause())
          || tokenRequest && e.getCause() instanceof IllegalArgumentException) {
        // (a token answer that is JSON but no token response, e.g. {}, fails iceberg-core's
        // parser with "Cannot parse missing string: access_token", an IllegalArgumentException)
        // iceberg-core's RESTException has a Jackson (I/O) cause, which read as CONNECTION_FAILED,
        // "retry": but the endpoint answered, with something that is not this protocol.
        throw tokenRequest
            ? CatalogAccessException.unreadableTokenAnswer(target)
            : CatalogAccessException.unreadableAnswer(what, target,
                "an Iceberg REST " + responseType(args),
                "check that the Integration's uri is an Iceberg REST catalog's base URI");
      }
      throw e.getCause(); // the delegate's own exception, unchanged
    }
  }

  /** Whether this is iceberg-core's config request ({@code GET v1/config} with its parameters). */
  private static boolean configRequest(Method method, Object[] args) {
    Class<?>[] parameters = method.getParameterTypes();
    return method.getName().equals("get") && parameters.length > 1 && parameters[1] == Map.class
        && "v1/config".equals(args[0]) && args[1] != null
        && args[args.length - 1] instanceof Consumer<?>;
  }

  /**
   * Whether iceberg-core got a success whose body does not parse into the expected response: its
   * HTTP client throws a bare {@link RESTException} caused by Jackson's parse failure then (error
   * answers are parsed leniently by the error handlers and never fail this way).
   */
  private static boolean unreadableSuccess(Throwable failure) {
    return failure != null && failure.getClass() == RESTException.class
        && failure.getCause() instanceof JsonProcessingException;
  }

  /** The response class a {@link RESTClient} method was asked to parse into, by simple name. */
  private static String responseType(Object[] args) {
    for (Object arg : args) {
      if (arg instanceof Class<?> type) {
        return type.getSimpleName();
      }
    }
    return "response";
  }

  /** The endpoint {@code path} goes to: its own for an absolute URL (a token endpoint), else ours. */
  private URI target(String path) {
    String lower = path.toLowerCase(Locale.ROOT);
    return lower.startsWith("http://") || lower.startsWith("https://") ? URI.create(path) : base;
  }

  /**
   * Whether the request failed before an answer came: name resolution, connect, reset, timeout,
   * TLS. Not any {@link java.io.IOException}: a body that does not parse is one too, and the
   * endpoint was reached then.
   */
  private static boolean connectionFailure(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof CatalogAccessException) {
        return false;
      }
      if (t instanceof java.net.SocketException
          || t instanceof java.net.UnknownHostException
          || t instanceof java.io.InterruptedIOException
          || t instanceof javax.net.ssl.SSLException
          // a peer that accepts and closes before answering: HttpClient's own I/O exception
          || t instanceof org.apache.hc.core5.http.NoHttpResponseException) {
        return true;
      }
    }
    return false;
  }

  /** Identity semantics, as the hand-written wrapper had; never shows the delegate's state. */
  private static Object objectMethod(Object proxy, Method method, Object[] args) {
    return switch (method.getName()) {
      case "equals" -> proxy == args[0];
      case "hashCode" -> System.identityHashCode(proxy);
      default ->
          "PolicyEnforcingRestClient@" + Integer.toHexString(System.identityHashCode(proxy));
    };
  }
}
