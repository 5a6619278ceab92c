package io.icegate.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.core.credential.MasterKey;
import io.icegate.core.store.KeyLayout;
import io.icegate.gateway.server.StoreLocation;
import io.icegate.gateway.testing.GatewayFixture;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Several gateways over one store (a SQLite file opened from two data dirs here; FoundationDB the
 * same way, its key always configured): a gateway whose master key is not the one the store's
 * secrets were written with refuses to start, naming the key setting to use, instead of answering
 * MASTER_KEY_MISMATCH (500) on the first credential read.
 */
@org.junit.jupiter.api.Timeout(300) // before the fix a refused start served (and blocked) instead
class SharedStoreMasterKeyTest {
  private static final PrintStream QUIET =
      new PrintStream(java.io.OutputStream.nullOutputStream());
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  @Test
  void aSecondDataDirOnASharedStoreIsRefusedUnlessGivenTheFirstOnesKey() throws Exception {
    String store = "sqlite:" + tmp.resolve("shared").resolve("icegate.db");
    Path firstDir = tmp.resolve("first");
    Path secondDir = tmp.resolve("second");
    Files.createDirectories(secondDir);
    try (GatewayFixture first = GatewayFixture.startWith(
        s -> new GatewaySettings(firstDir, store, "127.0.0.1", 0, false, s.bootstrapToken()))) {
      String integration = createIntegration(first);
      Path firstKey = firstDir.resolve(MasterKey.GENERATED_FILE).toAbsolutePath();

      // `icegate serve --data-dir second --store <shared>`, no key configured: one line, exit 1,
      // and no key generated in the second data dir.
      String refused = serve(secondDir, store, Map.of());
      assertThat(refused).startsWith("icegate: ").contains(store)
          .contains("ICEGATE_MASTER_KEY_FILE=" + firstKey).contains("no key was generated");
      assertThat(refused.strip().lines()).hasSize(1);
      assertThat(secondDir.resolve(MasterKey.GENERATED_FILE)).doesNotExist();

      // another configured key (what a second FoundationDB gateway with its own key does)
      String other = Base64.getEncoder().encodeToString(new byte[32]);
      String mismatch = serve(secondDir, store, Map.of(MasterKey.ENV, other));
      assertThat(mismatch).startsWith("icegate: ").contains("another master key")
          .contains(MasterKey.ENV).contains("set ICEGATE_MASTER_KEY_FILE=" + firstKey)
          .contains("start again").doesNotContain(other)
          // tryout: "(from ICEGATE_MASTER_KEY) (written with ...)" read as doubled parentheses
          .doesNotContain(") (").doesNotContain("))");
      assertThat(mismatch.strip().lines()).hasSize(1);

      // the first gateway's key file: it starts and reads the Integration's secret-backed record
      GatewaySettings shared = new GatewaySettings(secondDir, store, "127.0.0.1", 0, false, null,
          null, new MasterKeySource(null, firstKey), null, null, null);
      try (Gateway second = Gateway.start(shared, QUIET)) {
        HttpResponse<String> read = send(second, "GET", first.defaultAccountId(), integration);
        assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
      }
    }
  }

  @Test
  void aStoreWrittenBeforeKeyChecksIsCheckedAgainstItsSecretsAndNotWritten() throws Exception {
    Path dir = tmp.resolve("data");
    String account;
    String integration;
    try (GatewayFixture gw = GatewayFixture.startWith(
        s -> new GatewaySettings(dir, null, "127.0.0.1", 0, false, s.bootstrapToken()))) {
      account = gw.defaultAccountId();
      integration = createIntegration(gw);
      // as a store of an earlier version: secrets, no check
      gw.gateway().store().run(tx -> {
        tx.clear(KeyLayout.meta(KeyLayout.META_MASTER_KEY_CHECK));
        return null;
      });
    }
    Path key = dir.resolve(MasterKey.GENERATED_FILE);
    String right = Files.readString(key).strip();
    Files.delete(key);
    String other = Base64.getEncoder().encodeToString(new byte[32]);
    assertThat(serve(dir, null, Map.of(MasterKey.ENV, other)))
        .contains("another master key").contains("do not decrypt")
        .contains("set ICEGATE_MASTER_KEY (or ICEGATE_MASTER_KEY_FILE) to the key the store was"
            + " created with").doesNotContain(") (");
    assertThat(key).doesNotExist();

    var store = StoreLocation.open(null, dir);
    GatewaySettings settings = new GatewaySettings(dir, null, "127.0.0.1", 0, false, null, null,
        new MasterKeySource(right, null), null, null, null);
    try (Gateway gateway = Gateway.start(settings, store, QUIET)) {
      assertThat(store.stats().committedWrites()).as("opening an older store").isZero();
      assertThat(send(gateway, "GET", account, integration).statusCode()).isEqualTo(200);
    }
  }

  @Test
  void aForeignCheckIsRefusedOnAnEmbeddedStoreToo() throws Exception {
    Path dir = tmp.resolve("embedded");
    try (GatewayFixture gw = GatewayFixture.startWith(
        s -> new GatewaySettings(dir, null, "127.0.0.1", 0, false, s.bootstrapToken()))) {
      assertThat(gw.gateway().port()).isPositive();
    }
    GatewaySettings other = new GatewaySettings(dir, null, "127.0.0.1", 0, false, null, null,
        new MasterKeySource(Base64.getEncoder().encodeToString(new byte[32]), null), null, null,
        null);
    assertThatThrownBy(() -> Gateway.start(other, StoreLocation.open(null, dir), QUIET).close())
        .isInstanceOf(MasterKey.UnusableKeyException.class)
        .hasMessageContaining("another master key")
        .hasMessageContaining(dir.resolve(MasterKey.GENERATED_FILE).toAbsolutePath().toString());
  }

  private static String createIntegration(GatewayFixture gw) throws Exception {
    HttpResponse<String> created = gw.send("POST",
        "/admin/v1/accounts/" + gw.defaultAccountId() + "/integrations",
        "{\"displayName\":\"up\",\"type\":\"ICEBERG_REST\",\"uri\":\"https://c.example.com\","
            + "\"authentication\":{\"type\":\"bearer\",\"token\":\"shared-store-secret\"}}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    return JSON.readTree(created.body()).get("id").asText();
  }

  /** {@code icegate serve} on {@code dataDir} and {@code store} that is expected to refuse. */
  private static String serve(Path dataDir, String store, Map<String, String> environment)
      throws Exception {
    ServeCommand command = new ServeCommand();
    StringWriter err = new StringWriter();
    CommandLine commandLine = new CommandLine(command);
    commandLine.setErr(new PrintWriter(err, true));
    if (store == null) {
      commandLine.parseArgs("--port", "0", "--data-dir", dataDir.toString());
    } else {
      commandLine.parseArgs("--port", "0", "--data-dir", dataDir.toString(), "--store", store);
    }
    assertThat(command.serve(environment)).as(err.toString()).isEqualTo(1);
    assertThat(err.toString()).doesNotContain("\tat ");
    return err.toString();
  }

  private static HttpResponse<String> send(Gateway gateway, String method, String account,
      String integration) throws Exception {
    return java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
            java.net.URI.create("http://127.0.0.1:" + gateway.port() + "/admin/v1/accounts/"
                + account + "/integrations/" + integration))
            .method(method, java.net.http.HttpRequest.BodyPublishers.noBody())
            .header("Authorization", "Bearer " + GatewayFixture.TOKEN).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
