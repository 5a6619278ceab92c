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
    System.setProperty("warehouse", "default");
    System.setProperty("token", GatewayFixture.TOKEN);
    // The kit's switches for catalog behaviour (RESTCompatibilityKitCatalogTests): the gateway
    // refuses tables in a namespace that does not exist (the spec's 404), so the kit must create
    // namespaces first; and it keeps segment boundaries, so names with dots are supported.
    System.setProperty("rck.requires-namespace-create", "true");
    System.setProperty("rck.supports-names-with-dot", "true");
  }

  @Override
  public void testPlanExecutionFinished(TestPlan plan) {
    if (gateway != null) {
      gateway.close();
      gateway = null;
    }
  }
}
