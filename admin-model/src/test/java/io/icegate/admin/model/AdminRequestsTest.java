package io.icegate.admin.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Request records as the CLI writes them: member names on the wire, secrets kept out of toString. */
class AdminRequestsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SECRET = "PLANTED-5ecret-Qx81";

  @Test
  void createOverlayCarriesPathsAsListsOfSegments() throws Exception {
    assertThat(JSON.writeValueAsString(new AdminRequests.CreateOverlay("crm", "i1", "c1",
        List.of(List.of("sales", "q1.2026")), List.of())))
        .isEqualTo("{\"displayName\":\"crm\",\"integrationId\":\"i1\",\"catalogId\":\"c1\","
            + "\"includeNamespaces\":[[\"sales\",\"q1.2026\"]],\"excludeNamespaces\":[]}");
  }

  @Test
  void integrationTypeTravelsByName() throws Exception {
    assertThat(JSON.readTree(JSON.writeValueAsString(new AdminRequests.PatchIntegration(null,
        IntegrationType.DELTA_SHARING, null, Map.of()))).get("type").asText())
        .isEqualTo("DELTA_SHARING");
  }

  @Test
  void writeOnlyMembersStayOutOfToString() {
    assertThat(new AdminRequests.S3("e", "r", true, "AK", SECRET).toString())
        .doesNotContain(SECRET).contains("secretAccessKey=redacted");
    ObjectNode auth = JSON.createObjectNode().put("type", "bearer").put("token", SECRET);
    assertThat(new AdminRequests.CreateIntegration("up", IntegrationType.ICEBERG_REST,
        "https://rest.example.com", Map.of(), auth).toString()).doesNotContain(SECRET);
  }
}
