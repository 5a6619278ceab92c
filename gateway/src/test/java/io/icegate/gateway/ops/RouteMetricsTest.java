package io.icegate.gateway.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.gateway.testing.GatewayFixture;
import org.junit.jupiter.api.Test;

/**
 * {@code icegate_http_requests_total} and the latency histogram count every surface, the Iceberg
 * routes, the admin API and the console, under route templates: the label's values are bounded by
 * the route tables, whatever ids, names or junk paths the requests carry.
 */
class RouteMetricsTest {

  @Test
  void adminConsoleAndIcebergRequestsAreCountedUnderTheirTemplates() {
    try (GatewayFixture gateway = GatewayFixture.start()) {
      String account = gateway.defaultAccountId();
      gateway.send("GET", "/iceberg/v1/config", null);
      assertThat(gateway.send("GET", "/admin/v1/accounts/" + account + "/catalogs", null)
          .statusCode()).isEqualTo(200);
      gateway.send("GET", "/admin/v1/accounts/" + account + "/catalogs/no-such-catalog", null);
      gateway.send("GET", "/admin/v1/accounts/" + account + "/catalogs/another-id", null);
      gateway.send("GET", "/admin/v1/no-such-route-1", null);
      gateway.send("GET", "/admin/v1/no-such-route-2", null);
      gateway.send("DELETE", "/admin/v1/accounts", null);
      assertThat(gateway.send("GET", "/console/", null).statusCode()).isEqualTo(200);
      gateway.send("GET", "/console/app.js", null);
      gateway.send("GET", "/console/no-such-file.js", null);
      gateway.send("POST", "/console/", "{}");

      String metrics = gateway.send("GET", "/metrics", null).body();
      assertThat(metrics).contains(
          "icegate_http_requests_total{route=\"GET /v1/config\",status=\"200\"} 1",
          "icegate_http_requests_total{route=\"GET /admin/v1/accounts/{account}/catalogs\","
              + "status=\"200\"} 1",
          "icegate_http_requests_total{route="
              + "\"GET /admin/v1/accounts/{account}/catalogs/{catalog}\",status=\"404\"} 2",
          "icegate_http_requests_total{route=\"unmatched\",status=\"404\"}",
          "icegate_http_requests_total{route=\"unmatched\",status=\"405\"}",
          "icegate_http_requests_total{route=\"GET /console/{file}\",status=\"200\"}",
          "icegate_http_requests_total{route=\"GET /console/{file}\",status=\"404\"} 1",
          "icegate_http_request_duration_seconds_count{route="
              + "\"GET /admin/v1/accounts/{account}/catalogs\"} 1");
      // no raw path in any label: bounded cardinality
      assertThat(metrics).doesNotContain(account).doesNotContain("no-such")
          .doesNotContain("another-id").doesNotContain("app.js");
    }
  }

  /**
   * Tryout: a request Jetty refuses before any servlet (an encoded dot segment, a bad percent
   * escape) was answered 400 but counted nowhere.
   */
  @Test
  void requestsRefusedBeforeAnyServletAreCountedAsInvalid() {
    try (GatewayFixture gateway = GatewayFixture.start()) {
      for (String path : new String[] {"/iceberg/v1/%2e%2e/namespaces", "/iceberg/v1/ns/%ZZ",
          "/admin/v1/%2e%2e/accounts"}) {
        assertThat(gateway.rawGet(path)).as(path).startsWith("HTTP/1.1 400");
      }
      gateway.send("GET", "/admin/v1/no-such-route", null);
      String metrics = gateway.send("GET", "/metrics", null).body();
      assertThat(metrics).contains(
          "icegate_http_requests_total{route=\"" + RouteMetrics.INVALID + "\",status=\"400\"} 3",
          "icegate_http_requests_total{route=\"unmatched\",status=\"404\"} 1",
          "icegate_http_request_duration_seconds_count{route=\"" + RouteMetrics.INVALID + "\"} 3");
      assertThat(metrics).doesNotContain("%2e").doesNotContain("%ZZ");
    }
  }
}
