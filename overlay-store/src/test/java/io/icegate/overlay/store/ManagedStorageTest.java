package io.icegate.overlay.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.admin.model.IntegrationAuthentication;
import io.icegate.admin.model.IntegrationType;
import io.icegate.core.credential.CredentialPublication;
import io.icegate.core.credential.CredentialStore;
import io.icegate.core.credential.CredentialedWrites;
import io.icegate.core.credential.MasterKey;
import io.icegate.core.credential.SecretValues;
import io.icegate.core.durability.CreateRequest;
import io.icegate.core.durability.IdempotencySettings;
import io.icegate.core.durability.IdempotentCreates;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.integration.IntegrationService;
import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.Integration;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.Namespace;
import io.icegate.core.model.Provenance;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.Table;
import io.icegate.core.overlay.ContributionRetirement;
import io.icegate.core.overlay.OverlayService;
import io.icegate.core.repo.ChangeKind;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.testing.MutableClock;
import io.icegate.overlay.store.claim.NamespaceClaims;
import io.icegate.overlay.store.relation.ManagedRelations;
import io.icegate.overlay.store.testing.ContributionInvariants;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The storage contract reconciliation builds on: provenance on Tables, chunked definitions, the
 * managed-relation index, namespace claims refusing drop and move, and the contribution
 * invariants ({@link ContributionInvariants}).
 */
class ManagedStorageTest {
  private final ManagedRelations managed = new ManagedRelations();
  private final NamespaceClaims claims = new NamespaceClaims();
  private KvStore store;
  private Repositories repos;
  private String account;
  private String catalogId;
  private String overlayId;
  private String integrationId;

  @BeforeEach
  void setUp() {
    store = new EngineKvStore(InMemoryEngine.create());
    MutableClock clock = MutableClock.start();
    repos = OverlayStore.repositories(store, clock);
    account = repos.accounts().create(new Account("acme")).id();
    catalogId = repos.catalogs(account).create(new Catalog("prod", "file:/w", Map.of())).id();
    CredentialStore credentials = new CredentialStore(store, MasterKey.of(new byte[32]), clock);
    IdempotentCreates creates = new IdempotentCreates(repos, clock, IdempotencySettings.DEFAULT);
    IntegrationService integrations = new IntegrationService(repos,
        new CredentialedWrites(new CredentialPublication(credentials), creates), credentials,
        host -> { }); // address rules are tested with the SPI policy
    integrationId = integrations.create(account, new Integration("up", IntegrationType.ICEBERG_REST,
            "https://c.example.com/v1", Map.of(), new IntegrationAuthentication.Bearer(), 0),
        new SecretValues(Map.of("token", "t")), CreateRequest.plain()).outcome().resource().id();
    overlayId = new OverlayService(repos, creates, ContributionRetirement.NONE).create(account,
        new CatalogOverlay("o", integrationId, catalogId, List.of(), List.of()),
        CreateRequest.plain()).outcome().resource().id();
  }

  @AfterEach
  void tearDown() {
    store.close();
  }

  @Test
  void managedTableRoundTripsWithChunkedDefinitionAndIsForgottenOnDelete() {
    Resource<Namespace> ns = repos.namespaces(account).create(
        new Namespace(catalogId, List.of("sales"), Map.of()));
    byte[] definition = new byte[3 * ManagedRelations.CHUNK_BYTES + 17];
    new Random(1).nextBytes(definition);
    Provenance provenance = provenance("uuid-1", ManagedRelations.digest(definition));
    Resource<Table> table = store.run(tx -> {
      claims.claim(tx, account, ns.id(), overlayId, false);
      Resource<Table> created = repos.tables(account).create(tx,
          new Table(catalogId, List.of("sales"), "orders", null, Map.of("k", "v"), provenance));
      managed.writeDefinition(tx, account, ResourceKind.TABLE, created.id(), definition);
      managed.index(tx, account, overlayId, ResourceKind.TABLE, "uuid-1", created.id());
      return created;
    });
    ContributionInvariants.checker(store).assertClean();

    Resource<Table> read = repos.tables(account).get(table.id()).orElseThrow();
    assertThat(read.spec().provenance()).isEqualTo(provenance);
    assertThat(read.spec().managed()).isTrue();
    assertThat(read.spec().metadataLocation()).isNull();
    assertThat(definitionOf(table.id()))
        .hasValueSatisfying(bytes -> assertThat(Arrays.equals(bytes, definition)).isTrue());
    assertThat(chunkCount(table.id())).isEqualTo(4);

    // a smaller rewrite leaves no stale trailing chunk
    byte[] smaller = "{}".getBytes(StandardCharsets.UTF_8);
    store.run(tx -> {
      managed.writeDefinition(tx, account, ResourceKind.TABLE, table.id(), smaller);
      return null;
    });
    assertThat(definitionOf(table.id()))
        .hasValueSatisfying(bytes -> assertThat(bytes).isEqualTo(smaller));
    assertThat(ContributionInvariants.checker(store).violations())
        .anyMatch(v -> v.contains("no definition matching its digest"));

    repos.tables(account).delete(table.id(), ExpectedGeneration.any());
    assertThat(indexed("uuid-1"))
        .isEmpty();
    assertThat(definitionOf(table.id()))
        .isEmpty();
    store.run(tx -> claims.release(tx, account, ns.id(), overlayId));
    ContributionInvariants.checker(store).assertClean();
  }

  @Test
  void localTableNeedsAMetadataLocationAndManagedIndexListsInKeyOrder() {
    assertThatThrownBy(() -> new Table(catalogId, List.of("a"), "t", null, Map.of()))
        .isInstanceOf(IcegateException.class);
    store.run(tx -> {
      for (String id : List.of("b", "a", "c")) {
        managed.index(tx, account, overlayId, ResourceKind.TABLE, id, "rel-" + id);
      }
      managed.index(tx, account, overlayId, ResourceKind.VIEW, "a", "view-a");
      return null;
    });
    List<ManagedRelations.Entry> first = store.read(tx ->
        managed.managedBy(tx, account, overlayId, null, 2));
    assertThat(first).extracting(ManagedRelations.Entry::externalId).containsExactly("a", "b");
    List<ManagedRelations.Entry> rest = store.read(tx ->
        managed.managedBy(tx, account, overlayId, first.get(1), 0));
    assertThat(rest).extracting(ManagedRelations.Entry::relationId)
        .containsExactly("rel-c", "view-a");
    store.run(tx -> {
      tx.clearRange(KeyLayout.managedBy(account, overlayId).range().begin,
          KeyLayout.managedBy(account, overlayId).range().end);
      return null;
    });
  }

  @Test
  void claimedNamespaceRefusesDropAndMoveNamingTheOverlayButTakesPropertyChanges() {
    Resource<Namespace> ns = repos.namespaces(account).create(
        new Namespace(catalogId, List.of("shared"), Map.of()));
    store.run(tx -> claims.claim(tx, account, ns.id(), overlayId, true));
    ContributionInvariants.checker(store).assertClean();

    assertThatThrownBy(() -> repos.namespaces(account).delete(ns.id(), ExpectedGeneration.any()))
        .isInstanceOfSatisfying(IcegateException.class, e -> {
          assertThat(e.code()).isEqualTo(ErrorCode.NAMESPACE_CLAIMED);
          assertThat(e.getMessage()).contains(overlayId).contains("shared");
        });
    assertThatThrownBy(() -> repos.namespaces(account).rename(ns.id(), ExpectedGeneration.any(),
        NameScope.inCatalog(catalogId, List.of()), "moved"))
        .isInstanceOfSatisfying(IcegateException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.NAMESPACE_CLAIMED));
    repos.namespaces(account).update(ns.id(), ExpectedGeneration.any(),
        ns.spec().withProperties(Map.of("owner", "me")), ChangeKind.METADATA);

    // a second claim: releasing the creator's claim hands the creator flag on
    String other = "other-overlay-id";
    store.run(tx -> claims.claim(tx, account, ns.id(), other, false));
    boolean claimedAgain = store.run(tx -> claims.claim(tx, account, ns.id(), other, false));
    assertThat(claimedAgain).isFalse();
    boolean prunable = store.run(tx -> claims.release(tx, account, ns.id(), overlayId));
    assertThat(prunable).isFalse();
    List<NamespaceClaims.Claim> remaining = store.read(tx -> claims.claimsOn(tx, account, ns.id()));
    assertThat(remaining).containsExactly(new NamespaceClaims.Claim(ns.id(), other, true));
    List<String> claimed = store.read(tx -> claims.claimedBy(tx, account, other));
    assertThat(claimed).containsExactly(ns.id());
    prunable = store.run(tx -> claims.release(tx, account, ns.id(), other));
    assertThat(prunable).isTrue();
    prunable = store.run(tx -> claims.release(tx, account, ns.id(), other));
    assertThat(prunable).isFalse();
    repos.namespaces(account).delete(ns.id(), ExpectedGeneration.any());
    ContributionInvariants.checker(store).assertClean();
  }

  private java.util.Optional<byte[]> definitionOf(String tableId) {
    return store.read(tx -> managed.definition(tx, account, ResourceKind.TABLE, tableId));
  }

  private java.util.Optional<String> indexed(String externalId) {
    return store.read(tx -> managed.find(tx, account, overlayId, ResourceKind.TABLE, externalId));
  }

  private int chunkCount(String tableId) {
    var range = KeyLayout.definition(account, ResourceKind.TABLE, tableId).range();
    return store.read(tx -> tx.getRange(range.begin, range.end).size());
  }

  private Provenance provenance(String externalId, String digest) {
    return new Provenance(integrationId, overlayId, externalId, true, List.of("up"), "orders",
        "ICEBERG", "s3://b/up/orders/metadata/00001.json", digest);
  }
}
