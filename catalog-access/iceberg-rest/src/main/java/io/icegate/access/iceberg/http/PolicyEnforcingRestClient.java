package io.icegate.access.iceberg.http;

import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.access.paging.PageTokenGuard;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.rest.RESTClient;
import org.apache.iceberg.rest.auth.AuthSession;

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
 * arguments (so the delegate's own overrides of default methods still apply).
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
    if (parameters.length > 0 && parameters[0] == String.class) {
      String path = (String) args[0];
      check(path);
      if (method.getName().equals("get") && parameters.length > 1 && parameters[1] == Map.class) {
        @SuppressWarnings("unchecked")
        Map<String, String> queryParams = (Map<String, String>) args[1];
        pages.beforeGet(path, queryParams);
      }
    }
    try {
      return config.filter(method.invoke(delegate, args));
    } catch (InvocationTargetException e) {
      throw e.getCause(); // the delegate's own exception, unchanged
    }
  }

  private void check(String path) {
    String lower = path.toLowerCase(Locale.ROOT);
    String host =
        lower.startsWith("http://") || lower.startsWith("https://")
            ? URI.create(path).getHost()
            : base.getHost();
    policy.resolve(host);
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
