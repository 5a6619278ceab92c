package io.icegate.access.iceberg.http;

import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.access.paging.PageTokenGuard;
import java.io.IOException;
import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.iceberg.rest.ParserContext;
import org.apache.iceberg.rest.RESTClient;
import org.apache.iceberg.rest.RESTRequest;
import org.apache.iceberg.rest.RESTResponse;
import org.apache.iceberg.rest.auth.AuthSession;
import org.apache.iceberg.rest.responses.ErrorResponse;

/**
 * Wraps iceberg-core's {@code HTTPClient}: before every request it resolves the target host (the
 * catalog's, or the host of an absolute path such as an external OAuth2 token endpoint) and checks
 * every address against the caller's {@link OutboundAddressPolicy}, and it runs {@link
 * PageTokenGuard} on listings.
 *
 * <p>Limit: iceberg-core's HTTP client offers no DNS-resolver hook, so the connection itself
 * resolves the name again; the JVM's resolver cache ({@code networkaddress.cache.ttl}, 30 s by
 * default) normally returns the checked answer, but a rebinding DNS server with a zero TTL could
 * still race the check. Storage access (S3) does not have this gap: its client resolves through the
 * policy itself.
 */
public final class PolicyEnforcingRestClient implements RESTClient {

  private final RESTClient delegate;
  private final URI base;
  private final OutboundAddressPolicy policy;
  private final PageTokenGuard pages;

  public PolicyEnforcingRestClient(
      RESTClient delegate, URI base, OutboundAddressPolicy policy, int maxPages) {
    this(delegate, base, policy, new PageTokenGuard(maxPages));
  }

  private PolicyEnforcingRestClient(
      RESTClient delegate, URI base, OutboundAddressPolicy policy, PageTokenGuard pages) {
    this.delegate = delegate;
    this.base = base;
    this.policy = policy;
    this.pages = pages;
  }

  private void check(String path) {
    String lower = path.toLowerCase(Locale.ROOT);
    String host =
        lower.startsWith("http://") || lower.startsWith("https://")
            ? URI.create(path).getHost()
            : base.getHost();
    policy.resolve(host);
  }

  @Override
  public void head(String path, Map<String, String> headers, Consumer<ErrorResponse> errorHandler) {
    check(path);
    delegate.head(path, headers, errorHandler);
  }

  @Override
  public void head(
      String path, Supplier<Map<String, String>> headers, Consumer<ErrorResponse> errorHandler) {
    check(path);
    delegate.head(path, headers, errorHandler);
  }

  @Override
  public <T extends RESTResponse> T delete(
      String path,
      Class<T> responseType,
      Map<String, String> headers,
      Consumer<ErrorResponse> errorHandler) {
    check(path);
    return delegate.delete(path, responseType, headers, errorHandler);
  }

  @Override
  public <T extends RESTResponse> T delete(
      String path,
      Map<String, String> queryParams,
      Class<T> responseType,
      Map<String, String> headers,
      Consumer<ErrorResponse> errorHandler) {
    check(path);
    return delegate.delete(path, queryParams, responseType, headers, errorHandler);
  }

  @Override
  public <T extends RESTResponse> T delete(
      String path,
      Map<String, String> queryParams,
      Class<T> responseType,
      Supplier<Map<String, String>> headers,
      Consumer<ErrorResponse> errorHandler) {
    check(path);
    return delegate.delete(path, queryParams, responseType, headers, errorHandler);
  }

  @Override
  public <T extends RESTResponse> T delete(
      String path,
      Class<T> responseType,
      Supplier<Map<String, String>> headers,
      Consumer<ErrorResponse> errorHandler) {
    check(path);
    return delegate.delete(path, responseType, headers, errorHandler);
  }

  @Override
  public <T extends RESTResponse> T get(
      String path,
      Map<String, String> queryParams,
      Class<T> responseType,
      Map<String, String> headers,
      Consumer<ErrorResponse> errorHandler) {
    check(path);
    pages.beforeGet(path, queryParams);
    return delegate.get(path, queryParams, responseType, headers, errorHandler);
  }

  @Override
  public <T extends RESTResponse> T get(
      String path,
      Map<String, String> queryParams,
      Class<T> responseType,
      Map<String, String> headers,
      Consumer<ErrorResponse> errorHandler,
      ParserContext parserContext) {
    check(path);
    pages.beforeGet(path, queryParams);
    return delegate.get(path, queryParams, responseType, headers, errorHandler, parserContext);
  }

  @Override
  public <T extends RESTResponse> T get(
      String path,
      Map<String, String> queryParams,
      Class<T> responseType,
      Supplier<Map<String, String>> headers,
      Consumer<ErrorResponse> errorHandler) {
    check(path);
    pages.beforeGet(path, queryParams);
    return delegate.get(path, queryParams, responseType, headers, errorHandler);
  }

  @Override
  public <T extends RESTResponse> T get(
      String path,
      Class<T> responseType,
      Map<String, String> headers,
      Consumer<ErrorResponse> errorHandler) {
    check(path);
    return delegate.get(path, responseType, headers, errorHandler);
  }

  @Override
  public <T extends RESTResponse> T get(
      String path,
      Class<T> responseType,
      Supplier<Map<String, String>> headers,
      Consumer<ErrorResponse> errorHandler) {
    check(path);
    return delegate.get(path, responseType, headers, errorHandler);
  }

  @Override
  public <T extends RESTResponse> T post(
      String path,
      RESTRequest body,
      Class<T> responseType,
      Map<String, String> headers,
      Consumer<ErrorResponse> errorHandler) {
    check(path);
    return delegate.post(path, body, responseType, headers, errorHandler);
  }

  @Override
  public <T extends RESTResponse> T post(
      String path,
      RESTRequest body,
      Class<T> responseType,
      Map<String, String> headers,
      Consumer<ErrorResponse> errorHandler,
      Consumer<Map<String, String>> responseHeaders) {
    check(path);
    return delegate.post(path, body, responseType, headers, errorHandler, responseHeaders);
  }

  @Override
  public <T extends RESTResponse> T post(
      String path,
      RESTRequest body,
      Class<T> responseType,
      Map<String, String> headers,
      Consumer<ErrorResponse> errorHandler,
      Consumer<Map<String, String>> responseHeaders,
      ParserContext parserContext) {
    check(path);
    return delegate.post(
        path, body, responseType, headers, errorHandler, responseHeaders, parserContext);
  }

  @Override
  public <T extends RESTResponse> T post(
      String path,
      RESTRequest body,
      Class<T> responseType,
      Supplier<Map<String, String>> headers,
      Consumer<ErrorResponse> errorHandler) {
    check(path);
    return delegate.post(path, body, responseType, headers, errorHandler);
  }

  @Override
  public <T extends RESTResponse> T post(
      String path,
      RESTRequest body,
      Class<T> responseType,
      Supplier<Map<String, String>> headers,
      Consumer<ErrorResponse> errorHandler,
      Consumer<Map<String, String>> responseHeaders) {
    check(path);
    return delegate.post(path, body, responseType, headers, errorHandler, responseHeaders);
  }

  @Override
  public <T extends RESTResponse> T postForm(
      String path,
      Map<String, String> formData,
      Class<T> responseType,
      Map<String, String> headers,
      Consumer<ErrorResponse> errorHandler) {
    check(path);
    return delegate.postForm(path, formData, responseType, headers, errorHandler);
  }

  @Override
  public <T extends RESTResponse> T postForm(
      String path,
      Map<String, String> formData,
      Class<T> responseType,
      Supplier<Map<String, String>> headers,
      Consumer<ErrorResponse> errorHandler) {
    check(path);
    return delegate.postForm(path, formData, responseType, headers, errorHandler);
  }

  /** Iceberg derives per-session clients this way; they keep the same checks. */
  @Override
  public RESTClient withAuthSession(AuthSession session) {
    return new PolicyEnforcingRestClient(delegate.withAuthSession(session), base, policy, pages);
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}
