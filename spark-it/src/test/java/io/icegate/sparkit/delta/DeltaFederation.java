package io.icegate.sparkit.delta;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.access.unity.fixture.UnityCatalogFixture;
import io.icegate.sparkit.testing.AdminApi;
import io.icegate.sparkit.testing.FixtureProcess;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The admin-API calls of the Delta gateway tests, over plain HTTP as a user's script makes them:
 * Catalogs, Integrations, Overlays (keeping 30 days of captures, or the current one only),
 * reconciles, and the check that a reconcile captured one table cleanly.
 */
final class DeltaFederation {
  private final AdminApi admin;
  private final String accountPath;

  DeltaFederation(AdminApi admin) {
    this.admin = admin;
    this.accountPath = "/admin/v1/accounts/" + admin.accountId("default");
  }

  /** Creates a Catalog on an S3 warehouse with {@code s3} as its storage settings; its id. */
  String catalog(String name, String warehouse, Map<String, Object> s3) {
    return admin.post(accountPath + "/catalogs", Map.of("name", name, "warehouse", warehouse,
        "storage", Map.of("s3", s3))).expect(201).path("id").asText();
  }

  /**
   * Creates a Unity Integration on {@code unity}'s catalog {@code main} (OAuth2 client
   * credentials), whose vended credentials reach the {@code lake} store; its id.
   */
  String unityIntegration(UnityCatalogFixture unity, FixtureProcess lake) {
    return unityIntegration(unity, lake, Map.of("type", "oauth2-client-credentials",
        "clientId", UnityCatalogFixture.CLIENT_ID,
        "clientSecret", UnityCatalogFixture.CLIENT_SECRET));
  }

  /** As above, authenticating to Unity with {@code authentication} (the admin API's object). */
  String unityIntegration(UnityCatalogFixture unity, FixtureProcess lake,
      Map<String, Object> authentication) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("catalog", "main");
    properties.put("s3.endpoint", lake.address());
    properties.put("s3.region", lake.setting("region"));
    properties.put("s3.path-style-access", "true");
    Map<String, Object> integration = new LinkedHashMap<>();
    integration.put("displayName", "unity");
    integration.put("type", "UNITY");
    integration.put("uri", unity.uri().toString());
    integration.put("properties", properties);
    integration.put("authentication", authentication);
    return integration(integration);
  }

  /** Creates an Integration from {@code body}; its id. */
  String integration(Map<String, Object> body) {
    return admin.post(accountPath + "/integrations", body).expect(201).path("id").asText();
  }

  /** An Overlay of {@code namespace} into the Catalog, keeping 30 days of captures; its id. */
  String overlay(String name, String integrationId, String catalogId, List<String> namespace) {
    Map<String, Object> overlay = overlayBody(name, integrationId, catalogId, namespace);
    // time travel needs the earlier captures (absent, only the current one is kept)
    overlay.put("retention", "P30D");
    return admin.post(accountPath + "/overlays", overlay).expect(201).path("id").asText();
  }

  /** As {@link #overlay}, keeping the current capture only (no retention); its id. */
  String overlayOfTheCurrentCapture(String name, String integrationId, String catalogId,
      List<String> namespace) {
    return admin.post(accountPath + "/overlays",
        overlayBody(name, integrationId, catalogId, namespace)).expect(201).path("id").asText();
  }

  private static Map<String, Object> overlayBody(String name, String integrationId,
      String catalogId, List<String> namespace) {
    Map<String, Object> overlay = new LinkedHashMap<>();
    overlay.put("displayName", name);
    overlay.put("integrationId", integrationId);
    overlay.put("catalogId", catalogId);
    overlay.put("includeNamespaces", List.of(namespace));
    return overlay;
  }

  /** Reconciles the Overlay now; the report. */
  JsonNode reconcile(String overlayId) {
    return admin.post(accountPath + "/overlays/" + overlayId + "/reconcile", Map.of())
        .expect(200);
  }

  /** One table captured and validated, nothing failed or warned. */
  static void assertCapturedCleanly(JsonNode report) {
    assertThat(report.path("captured").asLong()).as(report.toString()).isEqualTo(1);
    assertThat(report.path("captureFailed").asLong()).as(report.toString()).isZero();
    assertThat(report.path("validated").asLong()).as(report.toString()).isEqualTo(1);
    assertThat(report.path("validationFailed").asLong()).as(report.toString()).isZero();
    assertThat(report.path("warnings")).as(report.toString()).isEmpty();
  }
}
