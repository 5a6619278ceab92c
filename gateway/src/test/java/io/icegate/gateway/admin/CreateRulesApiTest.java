package io.icegate.gateway.admin;

import static io.icegate.gateway.testing.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * The rules every admin create follows: an {@code Idempotency-Key} replays the first answer, refuses
 * another body and answers 409 while its first request runs; {@code ?onConflict=} chooses between
 * error, return-existing and replace.
 */
class CreateRulesApiTest extends AdminOverHttp {

  @Test
  void idempotencyKeyReplaysAndRefusesAnotherBody() {
    HttpResponse<String> first = gw.send("POST", base() + "/integrations", integration("idem"),
        "Idempotency-Key", "k1");
    assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
    HttpResponse<String> replay = gw.send("POST", base() + "/integrations", integration("idem"),
        "Idempotency-Key", "k1");
    assertThat(replay.statusCode()).isEqualTo(201);
    assertThat(json(replay).get("id")).isEqualTo(json(first).get("id"));
    assertProblem(gw.send("POST", base() + "/integrations", integration("other"),
        "Idempotency-Key", "k1"), 422, "IDEMPOTENCY_KEY_REUSED");
    assertProblem(gw.send("POST", base() + "/integrations?onConflict=replace",
        integration("idem"), "Idempotency-Key", "k2"), 400, "INVALID_ARGUMENT");
  }

  @Test
  void onConflictModes() {
    JsonNode first = json(gw.send("POST", base() + "/integrations", integration("dup")));
    assertProblem(gw.send("POST", base() + "/integrations", integration("dup")), 409,
        "ALREADY_EXISTS");
    HttpResponse<String> existing = gw.send("POST",
        base() + "/integrations?onConflict=return-existing", integration("dup"));
    assertThat(existing.statusCode()).isEqualTo(200);
    assertThat(json(existing).get("id")).isEqualTo(first.get("id"));
    HttpResponse<String> replaced = gw.send("POST", base() + "/integrations?onConflict=replace",
        integration("dup"));
    assertThat(replaced.statusCode()).isEqualTo(201);
    assertThat(json(replaced).get("id")).isNotEqualTo(first.get("id"));
    // the replaced identity's credentials went with it
    assertThat(credentialKeys(first.get("id").asText())).isZero();
    assertThat(credentialKeys(json(replaced).get("id").asText())).isEqualTo(1);
  }

  /**
   * 409 while the first request with a key is still running: a create through core's
   * IdempotentCreates on the gateway's store holds the reservation (blocked in its preparation
   * step, where a credentialed create stores its secret) while the same request arrives over HTTP.
   */
  @Test
  void aKeyWhoseFirstRequestIsStillRunningIs409() throws Exception {
    io.icegate.core.repo.Repositories repos =
        io.icegate.overlay.store.OverlayStore.repositories(gw.gateway().store(),
            java.time.Clock.systemUTC());
    io.icegate.core.durability.IdempotentCreates creates =
        new io.icegate.core.durability.IdempotentCreates(repos, java.time.Clock.systemUTC(),
            io.icegate.core.durability.IdempotencySettings.DEFAULT);
    io.icegate.core.model.Integration spec = new io.icegate.core.model.Integration("running",
        io.icegate.admin.model.IntegrationType.ICEBERG_REST, "https://catalog.example.com/v1",
        java.util.Map.of("warehouse", "w"), new io.icegate.admin.model.IntegrationAuthentication
            .Bearer(), 0);
    String fingerprint = io.icegate.core.durability.RequestFingerprint.of(java.util.Map.of(
        "request", spec, "onConflict", io.icegate.core.repo.OnConflict.ERROR,
        "withCredentials", true));
    java.util.concurrent.CountDownLatch reserved = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    Thread first = new Thread(() -> creates.create(repos.integrations(account), "running-key",
        fingerprint, spec, io.icegate.core.repo.OnConflict.ERROR,
        new io.icegate.core.durability.IdempotentCreates.Preparation<>() {
          @Override
          public io.icegate.core.model.Integration prepare(String id,
              io.icegate.core.model.Integration s) {
            reserved.countDown();
            try {
              release.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            return s;
          }

          @Override
          public void published(io.icegate.core.store.Transaction tx,
              io.icegate.core.model.Resource<io.icegate.core.model.Integration> r) {}
        }));
    first.start();
    assertThat(reserved.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    try {
      HttpResponse<String> running = gw.send("POST", base() + "/integrations",
          integration("running"), "Idempotency-Key", "running-key");
      assertProblem(running, 409, "IDEMPOTENCY_IN_PROGRESS");
      assertThat(running.headers().firstValue("Retry-After")).contains("1");
    } finally {
      release.countDown();
      first.join(10_000);
    }
  }
}
