package io.icegate.gateway.testing;

import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestPlan;

/**
 * Starts a fresh gateway for Iceberg's REST Compatibility Kit when the test plan contains it, and
 * points the kit at it. The kit's client reads its configuration from {@code CATALOG_*}
 * environment variables and from every system property (iceberg-open-api {@code RCKUtils}), so
 * {@code uri}, {@code warehouse} and {@code token} are set as system properties before any test
 * runs. The kit assumes an empty catalog, which a new data dir guarantees. Registered through
 * {@code META-INF/services}; the kit itself runs with {@code rck.local=false} (surefire
 * configuration parameters) so it does not start Iceberg's own server.
 */
public final class RckGatewayListener implements TestExecutionListener {
  private GatewayFixture gateway;

  @Override
  public void testPlanExecutionStarted(TestPlan plan) {
    boolean hasKit = plan.getRoots().stream()
        .flatMap(root -> plan.getDescendants(root).stream())
        .anyMatch(id -> id.getLegacyReportingName().startsWith("RESTCompatibilityKit")
            || id.getUniqueId().contains("RESTCompatibilityKit"));
    if (!hasKit) {
      return;
    }
    gateway = GatewayFixture.start();
    System.setProperty("uri", gateway.icebergUri());
    System.setProperty("warehouse", kitCatalog(gateway));
    System.setProperty("token", GatewayFixture.TOKEN);
    // The kit's switches for catalog behaviour (RESTCompatibilityKitCatalogTests): the gateway
    // refuses tables in a namespace that does not exist (the spec's 404), so the kit must create
    // namespaces first; and it keeps segment boundaries, so names with dots are supported.
    System.setProperty("rck.requires-namespace-create", "true");
    System.setProperty("rck.supports-names-with-dot", "true");
  }

  /**
   * Creates the Catalog the kit runs against, named {@code rck}, with warehouse {@code file:/tmp}:
   * the gateway refuses table and view locations outside the Catalog's warehouse, and the kit
   * asks for explicit ones under {@code file:/tmp} (literal table locations, JUnit temp dirs for
   * views). Confinement itself is tested in {@code ProblemInputsTest}.
   */
  private static String kitCatalog(GatewayFixture gateway) {
    String accounts = gateway.send("GET", "/admin/v1/accounts", null).body();
    String account;
    try {
      com.fasterxml.jackson.databind.JsonNode items =
          new com.fasterxml.jackson.databind.ObjectMapper().readTree(accounts).get("items");
      account = null;
      for (com.fasterxml.jackson.databind.JsonNode item : items) {
        if (item.get("name").asText().equals("default")) {
          account = item.get("id").asText();
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    var created = gateway.send("POST", "/admin/v1/accounts/" + account + "/catalogs",
        "{\"name\":\"rck\",\"warehouse\":\"file:/tmp\"}");
    if (created.statusCode() != 201) {
      throw new IllegalStateException("cannot create the kit's catalog: " + created.body());
    }
    return "rck";
  }

  @Override
  public void testPlanExecutionFinished(TestPlan plan) {
    if (gateway != null) {
      gateway.close();
      gateway = null;
    }
  }
}
