package io.icegate.gateway.admin;

import static io.icegate.gateway.testing.HttpJson.created;
import static io.icegate.gateway.testing.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.core.store.KvStoreFailureException;
import io.icegate.core.testing.HookedStore;
import io.icegate.gateway.testing.GatewayFixture;
import io.icegate.storage.sqlite.SqliteKvStore;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An Overlay delete and an Integration cascade that stop half-way (the store fails before a later
 * transaction of the DELETE, which leaves the data as a gateway killed there would; the gateway is
 * then restarted on the same SQLite file) show {@code "deleting": true} with the fence's
 * installation time on GET and in the list, instead of looking healthy; repeating the DELETE
 * finishes them and the views answer 404.
 */
class InterruptedDeletionTest {

  @TempDir Path dir;

  @Test
  void anInterruptedOverlayDeleteShowsUntilItIsRepeated() throws Exception {
    Path file = dir.resolve("store.db");
    String base;
    String overlay;
    HookedStore hooked = new HookedStore(SqliteKvStore.open(file));
    try (GatewayFixture gw = GatewayFixture.startOn(dir.resolve("data"), hooked)) {
      base = account(gw);
      String integration = integration(gw, base);
      overlay = overlay(gw, base, integration, catalog(gw, base));
      JsonNode healthy = json(gw.send("GET", base + "/overlays/" + overlay, null));
      assertThat(healthy.get("deleting").asBoolean()).isFalse();
      assertThat(healthy.has("deletionFence")).isFalse();
      // The fence commits (first write); the gateway "dies" before the next transaction.
      hooked.beforeWrite(2, InterruptedDeletionTest::die);
      HttpResponse<String> delete = gw.send("DELETE", base + "/overlays/" + overlay, null);
      assertThat(delete.statusCode()).as(delete.body()).isEqualTo(503);
    }
    try (GatewayFixture gw = GatewayFixture.reopen(dir.resolve("data"), SqliteKvStore.open(file))) {
      String path = base + "/overlays/" + overlay;
      assertDeleting(gw.send("GET", path, null));
      JsonNode items = json(gw.send("GET", base + "/overlays", null)).get("items");
      assertThat(items).hasSize(1);
      assertThat(items.get(0).get("deleting").asBoolean()).isTrue();
      assertThat(items.get(0).at("/deletionFence/installedAt").asText()).isNotEmpty();

      HttpResponse<String> repeated = gw.send("DELETE", path, null);
      assertThat(repeated.statusCode()).as(repeated.body()).isEqualTo(204);
      assertThat(gw.send("GET", path, null).statusCode()).isEqualTo(404);
      assertThat(json(gw.send("GET", base + "/overlays", null)).get("items")).isEmpty();
    }
  }

  @Test
  void anInterruptedIntegrationCascadeShowsUntilItIsRepeated() throws Exception {
    Path file = dir.resolve("store.db");
    String base;
    String integration;
    String overlay;
    HookedStore hooked = new HookedStore(SqliteKvStore.open(file));
    try (GatewayFixture gw = GatewayFixture.startOn(dir.resolve("data"), hooked)) {
      base = account(gw);
      integration = integration(gw, base);
      overlay = overlay(gw, base, integration, catalog(gw, base));
      JsonNode healthy = json(gw.send("GET", base + "/integrations/" + integration, null));
      assertThat(healthy.get("deleting").asBoolean()).isFalse();
      // The Integration's fence, then the Overlay's, commit; the gateway "dies" after them.
      hooked.beforeWrite(3, InterruptedDeletionTest::die);
      HttpResponse<String> delete =
          gw.send("DELETE", base + "/integrations/" + integration + "?cascade=true", null);
      assertThat(delete.statusCode()).as(delete.body()).isEqualTo(503);
    }
    try (GatewayFixture gw = GatewayFixture.reopen(dir.resolve("data"), SqliteKvStore.open(file))) {
      String path = base + "/integrations/" + integration;
      assertDeleting(gw.send("GET", path, null));
      assertDeleting(gw.send("GET", base + "/overlays/" + overlay, null));
      JsonNode items = json(gw.send("GET", base + "/integrations", null)).get("items");
      assertThat(items).hasSize(1);
      assertThat(items.get(0).get("deleting").asBoolean()).isTrue();

      HttpResponse<String> repeated = gw.send("DELETE", path + "?cascade=true", null);
      assertThat(repeated.statusCode()).as(repeated.body()).isEqualTo(204);
      assertThat(gw.send("GET", path, null).statusCode()).isEqualTo(404);
      assertThat(gw.send("GET", base + "/overlays/" + overlay, null).statusCode()).isEqualTo(404);
      assertThat(json(gw.send("GET", base + "/integrations", null)).get("items")).isEmpty();
    }
  }

  private static void die() {
    throw new KvStoreFailureException("the gateway died here");
  }

  private static void assertDeleting(HttpResponse<String> r) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode view = json(r);
    assertThat(view.get("deleting").asBoolean()).as(r.body()).isTrue();
    assertThat(view.at("/deletionFence/installedAt").asText()).as(r.body()).isNotEmpty();
  }

  private static String account(GatewayFixture gw) {
    return "/admin/v1/accounts/" + created(gw.send("POST", "/admin/v1/accounts",
        "{\"name\":\"deleting\"}")).get("id").asText();
  }

  private String catalog(GatewayFixture gw, String base) {
    return created(gw.send("POST", base + "/catalogs", "{\"name\":\"target\",\"warehouse\":\""
        + dir.resolve("warehouse").toUri() + "\"}")).get("id").asText();
  }

  private static String integration(GatewayFixture gw, String base) {
    return created(gw.send("POST", base + "/integrations", "{\"displayName\":\"upstream\","
        + "\"type\":\"ICEBERG_REST\",\"uri\":\"https://catalog.example.com/v1\","
        + "\"authentication\":{\"type\":\"bearer\",\"token\":\"tok\"}}")).get("id").asText();
  }

  private static String overlay(GatewayFixture gw, String base, String integration,
      String catalog) {
    return created(gw.send("POST", base + "/overlays", "{\"displayName\":\"mirror\","
        + "\"integrationId\":\"" + integration + "\",\"catalogId\":\"" + catalog
        + "\",\"includeNamespaces\":[[\"sales\"]]}")).get("id").asText();
  }
}
