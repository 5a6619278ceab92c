package io.icegate.gateway.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.gateway.testing.GatewayFixture;
import io.icegate.storage.sqlite.SqliteKvStore;
import io.icegate.storage.sqlite.SqliteSettings;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another process holds the SQLite file's write lock (a tryout held it from python's sqlite3):
 * Iceberg writes must answer 503 ServiceUnavailableException with the contention message and
 * Retry-After, on every route. A 409 CommitFailedException (what namespace creates, drops and
 * renames answered) tells iceberg-core "already exists" or "final failure"; a 503 "internal error" (table create and
 * commit) hid what happened and logged a stack trace.
 */
class StoreContentionTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void writesBehindAnotherProcessesLockAnswer503StoreContention() throws Exception {
    Path file = dir.resolve("icegate.db");
    SqliteSettings settings = SqliteSettings.DEFAULT.withBusyTimeout(Duration.ofMillis(300));
    try (GatewayFixture gateway = GatewayFixture.startOn(
            Files.createDirectories(dir.resolve("data")), SqliteKvStore.open(file, settings))) {
      String base = "/iceberg/v1/" + gateway.prefix();
      assertThat(gateway.send("POST", base + "/namespaces", "{\"namespace\":[\"ns\"]}")
          .statusCode()).isEqualTo(200);

      try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + file);
          Statement lock = other.createStatement()) {
        lock.execute("BEGIN EXCLUSIVE");

        assertContended(gateway.send("POST", base + "/namespaces", "{\"namespace\":[\"n2\"]}"));
        assertContended(gateway.send("POST", base + "/namespaces/ns/tables",
            "{\"name\":\"t\",\"schema\":{\"type\":\"struct\",\"schema-id\":0,\"fields\":"
                + "[{\"id\":1,\"name\":\"id\",\"required\":false,\"type\":\"long\"}]}}"));
        assertContended(gateway.send("DELETE", base + "/namespaces/ns", null));

        lock.execute("ROLLBACK");
      }
      assertThat(gateway.send("POST", base + "/namespaces", "{\"namespace\":[\"n2\"]}")
          .statusCode()).isEqualTo(200);
    }
  }

  private static void assertContended(HttpResponse<String> response) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
    assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
    JsonNode error = JSON.readTree(response.body()).get("error");
    assertThat(error.get("type").asText()).isEqualTo("ServiceUnavailableException");
    assertThat(error.get("message").asText())
        .isEqualTo("the store is too contended to complete the request; retry");
  }
}
