package io.icegate.core.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.core.durability.AccountDeletion;
import io.icegate.core.durability.CreateRequest;
import io.icegate.core.durability.IdempotentResult;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.CatalogStorage;
import io.icegate.core.model.Resource;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.OnConflict;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.engine.KvEngine;
import io.icegate.core.testing.InvariantChecker;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Warehouse claims through the Catalog service on a real store: Catalogs of different accounts
 * never overlap, Catalogs of one account may, and every way a Catalog goes releases its claim.
 * Each driver runs it through a subclass.
 */
public abstract class WarehouseClaimsTest {
  private ClaimWorld world;
  private String a;
  private String b;

  /** The engine of one test. */
  protected abstract KvEngine newEngine();

  /**
   * Runs after the store of a test is checked and closed (a driver removes its files here: its
   * own {@code @AfterEach} would run before this class's).
   */
  protected void storeClosed() {}

  @BeforeEach
  void open() {
    world = new ClaimWorld(new EngineKvStore(newEngine()));
    a = world.account("alpha");
    b = world.account("beta");
  }

  @AfterEach
  void close() {
    try {
      InvariantChecker.of(world.store).withCredentials(world.credentials).assertClean();
    } finally {
      try {
        world.store.close();
      } finally {
        storeClosed();
      }
    }
  }

  @Test
  void theSameWarehouseInAnotherAccountIsRefusedWithoutNamingIt() {
    Resource<Catalog> first = world.create(a, "sales", "s3://b/w");

    assertThatThrownBy(() -> world.create(b, "mine", "s3://b/w"))
        .isInstanceOfSatisfying(IcegateException.class, e -> {
          assertThat(e.code()).isEqualTo(ErrorCode.WAREHOUSE_OVERLAP);
          assertThat(e.httpStatus()).isEqualTo(409);
          assertThat(e.getMessage())
              .isEqualTo("warehouse s3://b/w overlaps a warehouse of another account")
              .doesNotContain(a, "alpha", first.id(), "sales");
        });
    assertThat(world.repos.catalogs(b).getByName(
        io.icegate.core.model.NameScope.ACCOUNT_WIDE, "mine")).isEmpty();
    assertThat(world.claims()).hasSize(1);
  }

  @Test
  void anAncestorOrADescendantOfAnotherAccountsWarehouseIsRefused() {
    world.create(a, "c", "s3://b/w/x");

    assertOverlap(b, "s3://b/w");
    assertOverlap(b, "s3://b");
    assertOverlap(b, "s3://b/w/x/y/z");
    world.create(b, "other", "s3://b/w/y");
    assertOverlap(a, "s3://b/w/y/deeper");
  }

  @Test
  void siblingPrefixesOtherBucketsAndOtherSchemesDoNotOverlap() {
    world.create(a, "c", "s3://b/w");

    world.create(b, "prefix", "s3://b/wx");
    world.create(b, "shorter", "s3://b/v");
    world.create(b, "bucket", "s3://bx/w");
    world.create(b, "local", "file:/b/w");
    assertThat(world.claims()).hasSize(5);
  }

  @Test
  void spellingsOfOneLocationAreOneWarehouse() {
    world.create(a, "local", "file:/data/w");
    world.create(a, "s3", "s3://lake/w/");

    assertOverlap(b, "file:///data/w");
    assertOverlap(b, "file://localhost/data/./w/");
    assertOverlap(b, "file:/data//w");
    assertOverlap(b, "s3://lake/w");
    assertOverlap(b, "s3://lake//./w//");
  }

  @Test
  void catalogsOfOneAccountMayOverlap() {
    world.create(a, "one", "s3://b/w");
    world.create(a, "same", "s3://b/w");
    world.create(a, "inside", "s3://b/w/x");
    world.create(a, "around", "s3://b");

    assertThat(world.claims()).hasSize(4);
    assertOverlap(b, "s3://b/v");
  }

  @Test
  void aWarehouseWithADotDotSegmentIsRefused() {
    assertThatThrownBy(() -> world.create(a, "up", "s3://b/w/../v"))
        .isInstanceOfSatisfying(IcegateException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    assertThat(world.claims()).isEmpty();
  }

  @Test
  void deletingACatalogReleasesItsWarehouse() {
    Resource<Catalog> c = world.create(a, "c", "s3://b/w");
    world.catalogs.delete(a, c.id(), ExpectedGeneration.any());

    assertThat(world.claims()).isEmpty();
    world.create(b, "c", "s3://b/w/x");
  }

  @Test
  void aReplacingCreateReleasesTheRetiredCatalogsWarehouse() {
    world.create(a, "c", "s3://b/old");
    Resource<Catalog> replacement = world.catalogs.create(a,
        new Catalog("c", "s3://b/new", Map.of()), null,
        new CreateRequest(OnConflict.REPLACE, null)).outcome().resource();

    world.create(b, "takes-old", "s3://b/old");
    assertOverlap(b, "s3://b/new");
    assertThat(world.claims()).extracting(k -> k.get(k.size() - 1))
        .contains(replacement.id()).hasSize(2);
  }

  @Test
  void aReplacingCreateMayKeepTheWarehouse() {
    world.create(a, "c", "s3://b/w");
    world.catalogs.create(a, new Catalog("c", "s3://b/w", Map.of()), null,
        new CreateRequest(OnConflict.REPLACE, null));

    assertThat(world.claims()).hasSize(1);
  }

  @Test
  void deletingAnAccountReleasesItsCatalogsWarehouses() {
    world.create(a, "one", "s3://b/w");
    world.create(a, "two", "file:/data/a");
    new AccountDeletion(world.repos, world.clock, 1, List.of())
        .delete(a, ExpectedGeneration.any());

    assertThat(world.claims()).isEmpty();
    world.create(b, "one", "s3://b/w");
    world.create(b, "two", "file:/data");
  }

  @Test
  void anIdempotentReplayAnswersAgainWithoutASecondClaim() {
    CreateRequest keyed = new CreateRequest(OnConflict.ERROR, "key-1");
    Resource<Catalog> first = world.create(a, "c", "s3://b/w", keyed);
    IdempotentResult<Catalog> replay = world.catalogs.create(a,
        new Catalog("c", "s3://b/w", Map.of()), null, keyed);

    assertThat(replay.replayed()).isTrue();
    assertThat(replay.outcome().resource().id()).isEqualTo(first.id());
    assertThat(world.claims()).hasSize(1);
  }

  @Test
  void aRefusedIdempotentCreateIsNotRecordedAndSucceedsOnceTheOverlapIsGone() {
    Resource<Catalog> other = world.create(a, "c", "s3://b/w");
    CreateRequest keyed = new CreateRequest(OnConflict.ERROR, "key-1");
    assertOverlap(() -> world.create(b, "c", "s3://b/w", keyed));

    world.catalogs.delete(a, other.id(), ExpectedGeneration.any());
    Resource<Catalog> created = world.create(b, "c", "s3://b/w", keyed);
    assertThat(world.claims()).singleElement().satisfies(k -> assertThat(k)
        .containsSubsequence(b, created.id()));
  }

  @Test
  void aRefusedCreateWithStorageKeysKeepsNoSecret() {
    world.create(a, "c", "s3://b/w");
    CatalogStorage storage = new CatalogStorage(
        new CatalogStorage.S3("https://s3.example.com", "eu-west-1", false, "AKIA1", 0));
    for (CreateRequest request : List.of(CreateRequest.plain(),
        new CreateRequest(OnConflict.ERROR, "key-2"))) {
      assertOverlap(() -> world.catalogs.create(b,
          new Catalog("keyed", "s3://b/w/x", Map.of(), storage), "secret", request));
    }
    assertThat(keysIn(KeySubspace.CREDENTIALS)).isEmpty();
    assertThat(keysIn(KeySubspace.CREDENTIAL_CANDIDATES)).isEmpty();
  }

  private List<io.icegate.core.store.KeyValue> keysIn(KeySubspace subspace) {
    return world.store.read(tx -> tx.getRange(subspace.range().begin, subspace.range().end));
  }

  @Test
  void theBackfillClaimsCatalogsStoredBeforeClaimsOnceAndReportsTheirOverlaps() {
    // stored before claims existed: straight through the repositories, claiming nothing
    String legacyA = world.repos.catalogs(a).create(new Catalog("old", "s3://b/w", Map.of())).id();
    String legacyB =
        world.repos.catalogs(b).create(new Catalog("old", "s3://b/w/x", Map.of())).id();
    world.repos.catalogs(b).create(new Catalog("none", null, Map.of()));
    world.repos.catalogs(b).create(new Catalog("up", "s3://c/../d", Map.of()));
    world.create(a, "new", "s3://e/f");

    WarehouseClaimBackfill.Report report = new WarehouseClaimBackfill(world.repos).run();

    assertThat(report.claimed()).isEqualTo(2);
    assertThat(report.overlaps()).singleElement().asString().contains(legacyA, legacyB);
    assertThat(world.claims()).hasSize(3);
    assertThat(new WarehouseClaimBackfill(world.repos).run())
        .isEqualTo(new WarehouseClaimBackfill.Report(0, List.of()));
    String gamma = world.account("gamma");
    assertOverlap(gamma, "s3://b/w/y");
    assertOverlap(gamma, "s3://e");
    world.create(gamma, "free", "s3://c/d");
  }

  private void assertOverlap(String account, String warehouse) {
    assertOverlap(() -> world.create(account, "n" + System.nanoTime(), warehouse));
  }

  private static void assertOverlap(Runnable create) {
    assertThatThrownBy(create::run).isInstanceOfSatisfying(IcegateException.class,
        e -> assertThat(e.code()).isEqualTo(ErrorCode.WAREHOUSE_OVERLAP));
  }
}
