package io.icegate.gateway.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.engine.KvEngine;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.testing.HookedStore;
import io.icegate.gateway.testing.GatewayFixture;
import io.icegate.storage.sqlite.SqliteEngine;
import io.icegate.storage.sqlite.SqliteSettings;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two administrators PATCHing one Catalog over HTTP, the second committing between the first's
 * reads and its writing transaction (a {@link HookedStore} action run on the first request's
 * server thread, which sends the second request and waits for its answer). With {@code If-Match:
 * *} both changes survive (the PATCH is decided on the record its transaction replaces); with the
 * ETag the first read, the first is refused (412) and writes nothing. On the in-memory engine
 * (real conflicts) and on a SQLite file, as core's {@code AdministratorRaceTest}.
 */
class CatalogPatchRaceTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void patchesWithIfMatchAnyKeepBothOnTheInMemoryEngine() throws Exception {
    patchesWithIfMatchAnyKeepBoth(InMemoryEngine.create());
  }

  @Test
  void patchesWithIfMatchAnyKeepBothOnSqlite() throws Exception {
    patchesWithIfMatchAnyKeepBoth(SqliteEngine.open(dir.resolve("race.db"), SqliteSettings.DEFAULT));
  }

  @Test
  void aPatchWithAStaleETagIsRefusedOnTheInMemoryEngine() throws Exception {
    aPatchWithAStaleETagIsRefused(InMemoryEngine.create());
  }

  @Test
  void aPatchWithAStaleETagIsRefusedOnSqlite() throws Exception {
    aPatchWithAStaleETagIsRefused(SqliteEngine.open(dir.resolve("race.db"), SqliteSettings.DEFAULT));
  }

  private void patchesWithIfMatchAnyKeepBoth(KvEngine engine) throws Exception {
    HookedStore store = new HookedStore(new EngineKvStore(engine));
    try (GatewayFixture gw = GatewayFixture.startOn(dir.resolve("data"), store)) {
      String path = catalog(gw);
      AtomicReference<HttpResponse<String>> second = new AtomicReference<>();
      store.beforeWrite(1, () -> second.set(gw.send("PATCH", path,
          "{\"properties\":{\"owner\":\"b\"}}", "If-Match", "*")));
      HttpResponse<String> first = gw.send("PATCH", path, "{\"name\":\"renamed\"}",
          "If-Match", "*");
      assertThat(store.fired()).isEqualTo(1);
      assertThat(second.get().statusCode()).isEqualTo(200);
      assertThat(first.statusCode()).isEqualTo(200);
      JsonNode stored = JSON.readTree(gw.send("GET", path, null).body());
      assertThat(stored.path("name").asText()).isEqualTo("renamed");
      assertThat(stored.path("properties").path("owner").asText()).isEqualTo("b");
      assertThat(JSON.readTree(first.body())).isEqualTo(stored);
    }
  }

  private void aPatchWithAStaleETagIsRefused(KvEngine engine) throws Exception {
    HookedStore store = new HookedStore(new EngineKvStore(engine));
    try (GatewayFixture gw = GatewayFixture.startOn(dir.resolve("data"), store)) {
      String path = catalog(gw);
      String etag = gw.send("GET", path, null).headers().firstValue("ETag").orElseThrow();
      AtomicReference<HttpResponse<String>> second = new AtomicReference<>();
      store.beforeWrite(1, () -> second.set(gw.send("PATCH", path,
          "{\"properties\":{\"owner\":\"b\"}}", "If-Match", etag)));
      HttpResponse<String> first = gw.send("PATCH", path, "{\"name\":\"renamed\"}",
          "If-Match", etag);
      assertThat(store.fired()).isEqualTo(1);
      assertThat(second.get().statusCode()).isEqualTo(200);
      assertThat(first.statusCode()).isEqualTo(412);
      assertThat(JSON.readTree(first.body()).path("code").asText())
          .isEqualTo("GENERATION_MISMATCH");
      JsonNode stored = JSON.readTree(gw.send("GET", path, null).body());
      assertThat(stored.path("name").asText()).isEqualTo("race");
      assertThat(stored.path("properties").path("owner").asText()).isEqualTo("b");
    }
  }

  /** Creates Catalog {@code race} in the default account; returns its admin path. */
  private static String catalog(GatewayFixture gw) throws Exception {
    String base = "/admin/v1/accounts/" + gw.defaultAccountId() + "/catalogs";
    HttpResponse<String> created = gw.send("POST", base,
        "{\"name\":\"race\",\"warehouse\":\"file:/tmp/race\",\"properties\":{\"k\":\"v\"}}");
    assertThat(created.statusCode()).isEqualTo(201);
    return base + "/" + JSON.readTree(created.body()).path("id").asText();
  }
}
