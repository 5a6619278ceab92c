package io.icegate.gateway.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.icegate.admin.AdminRoute;
import io.icegate.gateway.testing.GatewayFixture;
import java.net.http.HttpResponse;
import java.util.Iterator;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The served OpenAPI document and the served routes agree, both ways. */
class AdminOpenApiTest {

  @Test
  void documentAndRoutesAgree() throws Exception {
    try (GatewayFixture gw = GatewayFixture.start()) {
      HttpResponse<String> served = gw.send("GET", "/admin/v1/openapi.yaml", null,
          "Authorization", "none");
      assertThat(served.statusCode()).isEqualTo(200);
      JsonNode doc = new YAMLMapper().readTree(served.body());
      assertThat(doc.get("openapi").asText()).isEqualTo("3.1.0");

      Set<String> documented = new TreeSet<>();
      for (Iterator<String> paths = doc.get("paths").fieldNames(); paths.hasNext(); ) {
        String path = paths.next();
        for (Iterator<String> methods = doc.get("paths").get(path).fieldNames();
            methods.hasNext(); ) {
          documented.add(methods.next().toUpperCase(Locale.ROOT) + " " + path);
        }
      }
      Set<String> routed = new TreeSet<>();
      for (AdminRoute route : AdminRoute.values()) {
        routed.add(route.method() + " " + route.template());
      }
      assertThat(documented).isEqualTo(routed);

      // Every documented operation is served: no "no such route" or "method not allowed".
      for (String operation : documented) {
        String method = operation.substring(0, operation.indexOf(' '));
        String path = operation.substring(operation.indexOf(' ') + 1)
            .replace("{account}", "a").replace("{catalog}", "c").replace("{integration}", "i")
            .replace("{overlay}", "o").replace("{operation}", "op").replace("{table}", "t")
            .replace("{token}", "tk");
        HttpResponse<String> r = gw.send(method, path, "{}");
        assertThat(r.body()).as(operation)
            .doesNotContain("ROUTE_NOT_FOUND").doesNotContain("METHOD_NOT_ALLOWED");
      }
      // And a path outside the document is not served.
      assertThat(gw.send("GET", "/admin/v1/accounts/a/overlays/o/snapshots", null).body())
          .contains("ROUTE_NOT_FOUND");
    }
  }
}
