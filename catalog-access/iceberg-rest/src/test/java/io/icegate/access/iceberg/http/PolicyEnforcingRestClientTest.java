package io.icegate.access.iceberg.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.access.paging.PageTokenGuard;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.iceberg.rest.RESTClient;
import org.apache.iceberg.rest.RESTRequest;
import org.apache.iceberg.rest.RESTResponse;
import org.apache.iceberg.rest.auth.AuthSession;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.junit.jupiter.api.Test;

/**
 * The wrapper's routing of every overload. The delegate is a recording stand-in (no HTTP): what is
 * under test is which calls reach it; the policy and page guard are the real ones.
 */
class PolicyEnforcingRestClientTest {

  private static final URI LOOPBACK = URI.create("http://127.0.0.1:1/");

  /** Records "verb path"; answers null. Default overloads land on these abstract ones. */
  private static final class Recording implements RESTClient {
    final List<String> calls = new ArrayList<>();
    boolean closed;

    @Override
    public void head(String path, Map<String, String> headers, Consumer<ErrorResponse> errors) {
      calls.add("head " + path);
    }

    @Override
    public <T extends RESTResponse> T delete(
        String path, Class<T> type, Map<String, String> headers, Consumer<ErrorResponse> errors) {
      calls.add("delete " + path);
      return null;
    }

    @Override
    public <T extends RESTResponse> T get(
        String path,
        Map<String, String> query,
        Class<T> type,
        Map<String, String> headers,
        Consumer<ErrorResponse> errors) {
      calls.add("get " + path);
      return null;
    }

    @Override
    public <T extends RESTResponse> T post(
        String path,
        RESTRequest body,
        Class<T> type,
        Map<String, String> headers,
        Consumer<ErrorResponse> errors) {
      calls.add("post " + path);
      return null;
    }

    @Override
    public <T extends RESTResponse> T postForm(
        String path,
        Map<String, String> form,
        Class<T> type,
        Map<String, String> headers,
        Consumer<ErrorResponse> errors) {
      calls.add("postForm " + path);
      return null;
    }

    @Override
    public RESTClient withAuthSession(AuthSession session) {
      return this;
    }

    @Override
    public void close() {
      closed = true;
    }
  }

  private static void assertCode(Runnable call, Code code) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            CatalogAccessException.class, e -> assertThat(e.code()).isEqualTo(code));
  }

  @Test
  void everyVerbIsCheckedBeforeReachingTheDelegate() {
    Recording delegate = new Recording();
    RESTClient client =
        PolicyEnforcingRestClient.wrap(
            delegate, LOOPBACK, OutboundAddressPolicy.defaults().denyLoopback(), 10);
    Consumer<ErrorResponse> errors = e -> {};

    assertCode(() -> client.head("v1/config", Map::of, errors), Code.ADDRESS_DENIED);
    assertCode(
        () -> client.get("v1/config", Map.of(), null, Map.of(), errors), Code.ADDRESS_DENIED);
    assertCode(() -> client.delete("v1/x", null, Map::of, errors), Code.ADDRESS_DENIED);
    assertCode(() -> client.post("v1/x", null, null, Map.of(), errors), Code.ADDRESS_DENIED);
    assertCode(
        () -> client.postForm("http://127.0.0.1:2/token", Map.of(), null, Map.of(), errors),
        Code.ADDRESS_DENIED);
    assertCode(
        () -> client.withAuthSession(AuthSession.EMPTY).get("v1/config", null, Map.of(), errors),
        Code.ADDRESS_DENIED);
    assertThat(delegate.calls).isEmpty();
  }

  @Test
  void allowedCallsReachTheDelegateAndAbsolutePathsAreCheckedByTheirOwnHost() {
    Recording delegate = new Recording();
    RESTClient allowed =
        PolicyEnforcingRestClient.wrap(delegate, LOOPBACK, OutboundAddressPolicy.defaults(), 10);
    allowed.head("v1/config", Map::of, e -> {});
    allowed.postForm("v1/oauth/tokens", Map.of(), null, Map::of, e -> {});
    assertThat(delegate.calls).containsExactly("head v1/config", "postForm v1/oauth/tokens");

    // Base host is allowed, the absolute token endpoint is not.
    RESTClient split =
        PolicyEnforcingRestClient.wrap(
            delegate,
            URI.create("http://localhost.invalid/"),
            OutboundAddressPolicy.defaults().denyLoopback(),
            10);
    assertCode(
        () -> split.postForm("HTTP://127.0.0.1:3/token", Map.of(), null, Map.of(), e -> {}),
        Code.ADDRESS_DENIED);
    assertThat(delegate.calls).hasSize(2);
  }

  @Test
  void listingsGoThroughThePageGuardAcrossDerivedClients() {
    Recording delegate = new Recording();
    RESTClient client =
        PolicyEnforcingRestClient.wrap(delegate, LOOPBACK, OutboundAddressPolicy.defaults(), 10);
    Map<String, String> first = Map.of(PageTokenGuard.PAGE_TOKEN, "");
    Map<String, String> stuck = Map.of(PageTokenGuard.PAGE_TOKEN, "t1");
    client.get("v1/namespaces", first, null, Map.of(), e -> {});
    client.get("v1/namespaces", stuck, null, Map::of, e -> {});
    assertCode(
        () ->
            client
                .withAuthSession(AuthSession.EMPTY)
                .get("v1/namespaces", stuck, null, Map.of(), e -> {}, null),
        Code.UPSTREAM_PROTOCOL_ERROR);
    assertThat(delegate.calls).containsExactly("get v1/namespaces", "get v1/namespaces");
  }

  @Test
  void closeReachesTheDelegate() throws Exception {
    Recording delegate = new Recording();
    PolicyEnforcingRestClient.wrap(delegate, LOOPBACK, OutboundAddressPolicy.defaults(), 10)
        .close();
    assertThat(delegate.closed).isTrue();
  }
}
