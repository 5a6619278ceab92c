package io.icegate.access.paging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PageTokenGuardTest {

  private static Map<String, String> page(String token) {
    return Map.of("pageToken", token, "parent", "a");
  }

  @Test
  void endlessDistinctTokensStopAtTheBound() {
    PageTokenGuard guard = new PageTokenGuard(5);
    guard.beforeGet("v1/namespaces", page(""));
    int sent = 1;
    try {
      for (int i = 0; i < 100; i++) {
        guard.beforeGet("v1/namespaces", page("t" + i));
        sent++;
      }
    } catch (CatalogAccessException e) {
      assertThat(e.code()).isEqualTo(Code.UPSTREAM_PROTOCOL_ERROR);
    }
    assertThat(sent).isEqualTo(5);
  }

  @Test
  void aNewListingStartsAfresh() {
    PageTokenGuard guard = new PageTokenGuard(10);
    guard.beforeGet("v1/namespaces", page(""));
    guard.beforeGet("v1/namespaces", page("A"));
    guard.beforeGet("v1/namespaces", page("")); // a second, independent listing
    guard.beforeGet("v1/namespaces", page("A"));
    assertThatThrownBy(() -> guard.beforeGet("v1/namespaces", page("A")))
        .isInstanceOf(CatalogAccessException.class);
  }

  @Test
  void differentPathsAndParametersAreDifferentListings() {
    PageTokenGuard guard = new PageTokenGuard(10);
    guard.beforeGet("v1/namespaces", page(""));
    guard.beforeGet("v1/namespaces", page("A"));
    guard.beforeGet("v1/namespaces/a/tables", Map.of("pageToken", ""));
    guard.beforeGet("v1/namespaces/a/tables", Map.of("pageToken", "A"));
    guard.beforeGet("v1/namespaces", Map.of("pageToken", "A", "parent", "b"));
  }

  @Test
  void requestsWithoutPageTokensAreNotListings() {
    PageTokenGuard guard = new PageTokenGuard(1);
    for (int i = 0; i < 5; i++) {
      guard.beforeGet("v1/config", Map.of());
      guard.beforeGet("v1/config", null);
    }
  }
}
