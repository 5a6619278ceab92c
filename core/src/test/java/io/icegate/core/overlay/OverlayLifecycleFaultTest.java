package io.icegate.core.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.admin.model.IntegrationAuthentication;
import io.icegate.admin.model.IntegrationType;
import io.icegate.core.credential.CredentialPublication;
import io.icegate.core.credential.CredentialStore;
import io.icegate.core.credential.CredentialedWrites;
import io.icegate.core.credential.MasterKey;
import io.icegate.core.credential.SecretValues;
import io.icegate.core.durability.AccountDeletion;
import io.icegate.core.durability.CreateRequest;
import io.icegate.core.durability.IdempotentResult;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.integration.IntegrationService;
import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.Integration;
import io.icegate.core.model.Resource;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.OnConflict;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.store.testing.FaultInjectingEngine.Fault;
import io.icegate.core.testing.FaultSweep;
import io.icegate.core.testing.FaultWorld;
import io.icegate.core.testing.InvariantChecker;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Fault injection at every commit point of overlay create (with an Idempotency-Key, plain, and
 * replacing), overlay delete, integration cascade and account delete, with every fault kind, then
 * 1,000 seeded random runs, on the in-memory driver. After each phase: the store invariants
 * (overlay bindings, counters, fences, credentials, receipts) and a replay of every receipt; the
 * caller's retry of every delete and cascade completes; the retirement hook saw every Overlay
 * that went away, each while fenced.
 */
class OverlayLifecycleFaultTest {
  private static final SecretValues TOKEN = new SecretValues(Map.of("token", "s3cr3t"));
  private static final byte[] KEY = new byte[32];

  private static void scenario(FaultWorld world) {
    CredentialStore credentials = new CredentialStore(world.store, MasterKey.of(KEY), world.clock);
    CredentialedWrites writes =
        new CredentialedWrites(new CredentialPublication(credentials), world.creates);
    IntegrationService integrations = new IntegrationService(world.repos, writes, credentials,
        host -> { }); // address rules are the SPI policy's, tested there
    RecordingRetirement retirement = new RecordingRetirement(world.store);
    OverlayService overlays = new OverlayService(world.repos, world.creates, retirement);
    IntegrationCascade cascade =
        new IntegrationCascade(world.repos, overlays, retirement, credentials);
    AccountDeletion deletion = new AccountDeletion(world.repos, world.clock, 3,
        List.of(overlays.accountCleanup(), credentials.accountCleanup()));

    String account = world.retrying(() -> world.repos.accounts()
        .create(new Account("acme"), OnConflict.RETURN_EXISTING)).resource().id();
    String catalog = world.retrying(() -> world.repos.catalogs(account)
        .create(new Catalog("target", "file:/w", Map.of()), OnConflict.RETURN_EXISTING))
        .resource().id();
    String upstream = integration(world, integrations, account, "upstream");

    // overlay create with an Idempotency-Key, recorded for replay
    CatalogOverlay keyed = overlay("keyed", upstream, catalog, List.of(List.of("a")));
    IdempotentResult<CatalogOverlay> answer = world.retrying(() -> overlays.create(account, keyed,
        new CreateRequest(OnConflict.ERROR, "ov-key")));
    world.ledger.recordAnswer(world.repos.overlays(account), "ov-key",
        OverlayService.fingerprint(keyed, OnConflict.ERROR), keyed, OnConflict.ERROR,
        answer.outcome());
    // plain create, then a replacing create of the same name
    String plain = world.retrying(() -> overlays.create(account,
        overlay("plain", upstream, catalog, List.of()),
        new CreateRequest(OnConflict.RETURN_EXISTING, null))).outcome().resource().id();
    Resource<CatalogOverlay> replacement = world.retrying(() -> overlays.create(account,
        overlay("plain", upstream, catalog, List.of(List.of("b"))),
        new CreateRequest(OnConflict.REPLACE, null))).outcome().resource();
    assertThat(replacement.id()).isNotEqualTo(plain);
    assertThat(retirement.retired).contains(plain);
    // overlay delete; a retry after an unknown outcome finds it gone
    deleteOverlay(world, overlays, account, answer.outcome().resource().id());
    assertThat(retirement.retired).contains(answer.outcome().resource().id());
    world.verify(a -> true);
    world.checker().withCredentials(credentials).assertClean();

    // integration cascade: overlays and integration go, the catalog stays
    retried(world, () -> cascade.delete(account, upstream, ExpectedGeneration.any()));
    assertThat(world.repos.integrations(account).get(upstream)).isEmpty();
    assertThat(world.repos.overlays(account).get(replacement.id())).isEmpty();
    assertThat(world.repos.catalogs(account).get(catalog)).isPresent();
    assertThat(retirement.retired).contains(replacement.id());
    world.verify(a -> true);
    world.checker().withCredentials(credentials).assertClean();

    // account delete with an overlay in it
    String second = integration(world, integrations, account, "second");
    String last = world.retrying(() -> overlays.create(account,
        overlay("last", second, catalog, List.of()),
        new CreateRequest(OnConflict.RETURN_EXISTING, null))).outcome().resource().id();
    retried(world, () -> deletion.delete(account, ExpectedGeneration.any()));
    assertThat(world.checker().keysOfAccount(account)).isZero();
    assertThat(retirement.retiredForAccountDeletion).contains(last);
    assertThat(retirement.unfenced).isEmpty();
    world.verify(a -> !a.equals(account));
    world.checker().withCredentials(credentials).assertClean();
  }

  private static String integration(FaultWorld world, IntegrationService integrations,
      String account, String name) {
    Integration spec = new Integration(name, IntegrationType.ICEBERG_REST,
        "https://c.example.com/v1", Map.of(), new IntegrationAuthentication.Bearer(), 0);
    return world.retrying(() -> integrations.create(account, spec, TOKEN,
        new CreateRequest(OnConflict.RETURN_EXISTING, null))).outcome().resource().id();
  }

  static CatalogOverlay overlay(String name, String integration, String catalog,
      List<List<String>> include) {
    return new CatalogOverlay(name, integration, catalog, include, List.of());
  }

  private static void deleteOverlay(FaultWorld world, OverlayService overlays, String account,
      String id) {
    retried(world, () -> overlays.delete(account, id, ExpectedGeneration.any()));
    assertThat(world.repos.overlays(account).get(id)).isEmpty();
  }

  /** The caller's retry of a delete: NOT_FOUND after an earlier attempt means it completed. */
  private static void retried(FaultWorld world, Supplier<?> delete) {
    boolean attempted = false;
    for (int i = 0; i < 40; i++) {
      try {
        world.retrying(delete);
        return;
      } catch (IcegateException e) {
        if (e.code() == ErrorCode.NOT_FOUND && attempted) {
          return;
        }
        throw e;
      } finally {
        attempted = true;
      }
    }
  }

  @Test
  void everyCommitPointWithEveryFault() {
    FaultSweep.everyCommitPointWithEveryFault(world -> scenario(world), 20);
  }

  @Test
  void thousandSeededRandomRuns() {
    FaultSweep.seededRandomRuns(world -> scenario(world), 1000, 0.2);
  }

  @Test
  void checkerFlagsAnOverlayWhoseIntegrationIsGone() {
    try (FaultWorld world = FaultWorld.open(InMemoryEngine.create())) {
      RecordingRetirement retirement = new RecordingRetirement(world.store);
      OverlayService overlays = new OverlayService(world.repos, world.creates, retirement);
      String account = world.repos.accounts().create(new Account("a")).id();
      String catalog = world.repos.catalogs(account)
          .create(new Catalog("c", "file:/w", Map.of())).id();
      String integration = world.repos.integrations(account).create(new Integration("i",
          IntegrationType.ICEBERG_REST, "https://c.example.com", Map.of(),
          new IntegrationAuthentication.Bearer(), 0)).id();
      overlays.create(account, overlay("o", integration, catalog, List.of()),
          CreateRequest.plain());
      world.store.run(tx -> {
        tx.clear(io.icegate.core.store.KeyLayout.resource(
            world.repos.integrations(account).ref(integration)));
        return null;
      });
      assertThat(InvariantChecker.of(world.store).violations())
          .anyMatch(v -> v.contains("bound to missing"))
          .anyMatch(v -> v.contains("counter of overlays on missing owner"));
    }
  }
}
