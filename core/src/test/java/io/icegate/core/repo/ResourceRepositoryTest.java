package io.icegate.core.repo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.Etags;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.Namespace;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.Table;
import io.icegate.core.model.View;
import io.icegate.core.paging.Page;
import io.icegate.core.paging.PageRequest;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.ReadConsistency;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.testing.InvariantChecker;
import io.icegate.core.testing.MutableClock;
import io.icegate.core.testing.NoContributions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ResourceRepositoryTest {
  private KvStore store;
  private MutableClock clock;
  private Repositories repos;
  private String account;
  private String catalogId;

  @BeforeEach
  void setUp() {
    store = new EngineKvStore(InMemoryEngine.create());
    clock = MutableClock.start();
    repos = new Repositories(store, clock, NoContributions.RULES);
    account = repos.accounts().create(new Account("acme")).id();
    catalogId = repos.catalogs(account).create(new Catalog("prod", "file:/w", Map.of())).id();
  }

  @AfterEach
  void tearDown() {
    InvariantChecker.of(store).assertClean();
    store.close();
  }

  private ResourceRepository<Namespace> namespaces() {
    return repos.namespaces(account);
  }

  private Resource<Namespace> namespace(String... path) {
    return namespaces().create(new Namespace(catalogId, List.of(path), Map.of()));
  }

  private Table table(List<String> ns, String name) {
    return new Table(catalogId, ns, name, "s3://b/" + name + "/v1.metadata.json", Map.of());
  }

  private static void assertCode(Runnable action, ErrorCode code, ResourceKind subject) {
    assertThatThrownBy(action::run)
        .isInstanceOfSatisfying(IcegateException.class, e -> {
          assertThat(e.code()).isEqualTo(code);
          assertThat(e.subject()).contains(subject);
        });
  }

  @Test
  void newIdsAreVersion7UuidsThatSortInCreationOrder() {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      ids.add(ResourceRepository.newId());
    }
    assertThat(ids).doesNotHaveDuplicates().isSorted();
    for (String id : List.of(ids.get(0), ids.get(9_999))) {
      UUID uuid = UUID.fromString(id);
      assertThat(uuid.version()).isEqualTo(7);
      assertThat(uuid.variant()).isEqualTo(2); // RFC 9562
      assertThat(uuid.toString()).isEqualTo(id);
    }
  }

  @Test
  void createGetAndGetByName() {
    Resource<Catalog> c = repos.catalogs(account).get(catalogId).orElseThrow();
    assertThat(c.name()).isEqualTo("prod");
    assertThat(c.accountId()).isEqualTo(account);
    assertThat(c.generation()).isEqualTo(1);
    assertThat(c.configurationGeneration()).isEqualTo(1);
    assertThat(c.createdAt()).isEqualTo(clock.instant());
    assertThat(repos.catalogs(account).getByName(NameScope.ACCOUNT_WIDE, "prod")).contains(c);
    assertThat(repos.catalogs(account).getByName(NameScope.ACCOUNT_WIDE, "Prod")).isEmpty();
    assertThat(repos.catalogs(account).get("no-such-id")).isEmpty();
    Resource<Account> a = repos.accounts().getByName(NameScope.ACCOUNT_WIDE, "acme").orElseThrow();
    assertThat(a.accountId()).isEqualTo(a.id());
  }

  @Test
  void catalogNamesAreUniquePerAccount() {
    assertCode(() -> repos.catalogs(account).create(new Catalog("prod", null, Map.of())),
        ErrorCode.ALREADY_EXISTS, ResourceKind.CATALOG);
    String other = repos.accounts().create(new Account("other")).id();
    Resource<Catalog> same = repos.catalogs(other).create(new Catalog("prod", null, Map.of()));
    assertThat(same.id()).isNotEqualTo(catalogId);
    assertCode(() -> repos.accounts().create(new Account("acme")),
        ErrorCode.ALREADY_EXISTS, ResourceKind.ACCOUNT);
  }

  @Test
  void createBelowMissingParentsIsNotFound() {
    assertCode(() -> repos.catalogs("no-such-account").create(new Catalog("x", null, Map.of())),
        ErrorCode.NOT_FOUND, ResourceKind.ACCOUNT);
    assertCode(() -> namespaces().create(new Namespace("no-such-catalog", List.of("a"), Map.of())),
        ErrorCode.NOT_FOUND, ResourceKind.CATALOG);
    assertCode(() -> repos.tables(account).create(table(List.of("missing"), "t")),
        ErrorCode.NOT_FOUND, ResourceKind.NAMESPACE);
  }

  @Test
  void namespaceSegmentBoundariesAreKept() {
    Resource<Namespace> dotted = namespace("new.db");
    namespace("new");
    Resource<Namespace> nested = namespace("new", "db");
    Resource<Namespace> publicDefault = namespace("public.default");
    namespace("public");
    Resource<Namespace> publicSlashDefault = namespace("public", "default");
    assertThat(dotted.id()).isNotEqualTo(nested.id());
    assertThat(publicDefault.id()).isNotEqualTo(publicSlashDefault.id());

    assertThat(names(namespaces(), NameScope.inCatalog(catalogId, List.of())))
        .containsExactly("new", "new.db", "public", "public.default");
    assertThat(names(namespaces(), NameScope.inCatalog(catalogId, List.of("new"))))
        .containsExactly("db");
    assertThat(names(namespaces(), NameScope.inCatalog(catalogId, List.of("new.db")))).isEmpty();
    assertThat(namespaces().getByName(NameScope.inCatalog(catalogId, List.of("public")), "default"))
        .hasValueSatisfying(n -> assertThat(n.spec().path()).containsExactly("public", "default"));
    assertThat(namespaces().getByName(NameScope.inCatalog(catalogId, List.of()), "public.default"))
        .hasValueSatisfying(n -> assertThat(n.spec().path()).containsExactly("public.default"));
    // Case-sensitive.
    namespace("NEW");
    assertThat(namespaces().count(Listing.of(NameScope.inCatalog(catalogId, List.of())),
        ReadConsistency.STRONG)).isEqualTo(5);
  }

  @Test
  void childListingReturnsOnlyDirectChildren() {
    namespace("a");
    namespace("a", "b");
    namespace("a", "b", "c");
    namespace("a", "x");
    namespace("ab");
    assertThat(names(namespaces(), NameScope.inCatalog(catalogId, List.of("a"))))
        .containsExactly("b", "x");
    assertThat(names(namespaces(), NameScope.inCatalog(catalogId, List.of("a", "b"))))
        .containsExactly("c");
  }

  @Test
  void tablesAndViewsShareOneRelationNameScope() {
    namespace("db");
    repos.tables(account).create(table(List.of("db"), "t"));
    assertCode(() -> repos.views(account).create(
            new View(catalogId, List.of("db"), "t", "s3://b/v.json", Map.of())),
        ErrorCode.ALREADY_EXISTS, ResourceKind.TABLE);
    repos.views(account).create(new View(catalogId, List.of("db"), "v", "s3://b/v.json", Map.of()));
    assertCode(() -> repos.tables(account).create(table(List.of("db"), "v")),
        ErrorCode.ALREADY_EXISTS, ResourceKind.VIEW);
    // Listings stay per kind.
    assertThat(names(repos.tables(account), NameScope.inCatalog(catalogId, List.of("db"))))
        .containsExactly("t");
    assertThat(names(repos.views(account), NameScope.inCatalog(catalogId, List.of("db"))))
        .containsExactly("v");
  }

  @Test
  void updateIsCompareAndSetOnGeneration() {
    namespace("db");
    Resource<Table> t = repos.tables(account).create(table(List.of("db"), "t"));
    Resource<Table> t2 = repos.tables(account).update(t.id(), ExpectedGeneration.of(1),
        t.spec().withMetadataLocation("s3://b/t/v2.metadata.json"), ChangeKind.METADATA);
    assertThat(t2.generation()).isEqualTo(2);
    assertThat(t2.configurationGeneration()).isEqualTo(1);
    assertThat(t2.etag()).isNotEqualTo(t.etag());
    assertThatThrownBy(() -> repos.tables(account).update(t.id(), ExpectedGeneration.of(1),
            t.spec().withMetadataLocation("s3://b/t/lost.json"), ChangeKind.METADATA))
        .isInstanceOfSatisfying(IcegateException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.GENERATION_MISMATCH));
    assertThat(repos.tables(account).get(t.id()).orElseThrow().spec().metadataLocation())
        .isEqualTo("s3://b/t/v2.metadata.json");
    assertCode(() -> repos.tables(account).update("nope", ExpectedGeneration.any(), t.spec(),
        ChangeKind.METADATA), ErrorCode.NOT_FOUND, ResourceKind.TABLE);
  }

  @Test
  void configurationGenerationAdvancesOnlyOnConfigurationChanges() {
    ResourceRepository<Catalog> catalogs = repos.catalogs(account);
    clock.advance(Duration.ofSeconds(5));
    Resource<Catalog> renamed = catalogs.rename(catalogId, ExpectedGeneration.of(1),
        NameScope.ACCOUNT_WIDE, "production");
    assertThat(renamed.generation()).isEqualTo(2);
    assertThat(renamed.configurationGeneration()).isEqualTo(1);
    assertThat(renamed.updatedAt()).isAfter(renamed.createdAt());
    Resource<Catalog> reconfigured = catalogs.update(catalogId, ExpectedGeneration.of(2),
        new Catalog("production", "s3://new", Map.of("k", "v")), ChangeKind.CONFIGURATION);
    assertThat(reconfigured.generation()).isEqualTo(3);
    assertThat(reconfigured.configurationGeneration()).isEqualTo(2);
    Resource<Catalog> relabelled = catalogs.update(catalogId, ExpectedGeneration.any(),
        new Catalog("production", "s3://new", Map.of("k", "v", "comment", "x")),
        ChangeKind.METADATA);
    assertThat(relabelled.generation()).isEqualTo(4);
    assertThat(relabelled.configurationGeneration()).isEqualTo(2);
  }

  @Test
  void renameMovesTheNameIndexEntry() {
    ResourceRepository<Catalog> catalogs = repos.catalogs(account);
    catalogs.create(new Catalog("staging", null, Map.of()));
    assertCode(() -> catalogs.rename(catalogId, ExpectedGeneration.any(), NameScope.ACCOUNT_WIDE,
        "staging"), ErrorCode.ALREADY_EXISTS, ResourceKind.CATALOG);
    catalogs.rename(catalogId, ExpectedGeneration.any(), NameScope.ACCOUNT_WIDE, "live");
    assertThat(catalogs.getByName(NameScope.ACCOUNT_WIDE, "prod")).isEmpty();
    assertThat(catalogs.getByName(NameScope.ACCOUNT_WIDE, "live").orElseThrow().id())
        .isEqualTo(catalogId);
    // The old name is free again.
    catalogs.create(new Catalog("prod", null, Map.of()));
  }

  @Test
  void tableMovesAcrossNamespacesOfItsCatalog() {
    namespace("a");
    namespace("b");
    Resource<Table> t = repos.tables(account).create(table(List.of("a"), "t"));
    repos.views(account).create(new View(catalogId, List.of("b"), "taken", "s3://v", Map.of()));
    assertCode(() -> repos.tables(account).rename(t.id(), ExpectedGeneration.any(),
            NameScope.inCatalog(catalogId, List.of("b")), "taken"),
        ErrorCode.ALREADY_EXISTS, ResourceKind.VIEW);
    assertCode(() -> repos.tables(account).rename(t.id(), ExpectedGeneration.any(),
            NameScope.inCatalog(catalogId, List.of("missing")), "t"),
        ErrorCode.NOT_FOUND, ResourceKind.NAMESPACE);
    Resource<Table> moved = repos.tables(account).rename(t.id(), ExpectedGeneration.of(1),
        NameScope.inCatalog(catalogId, List.of("b")), "t2");
    assertThat(moved.spec().namespace()).containsExactly("b");
    assertThat(names(repos.tables(account), NameScope.inCatalog(catalogId, List.of("a")))).isEmpty();
    assertThat(names(repos.tables(account), NameScope.inCatalog(catalogId, List.of("b"))))
        .containsExactly("t2");
    String otherCatalog = repos.catalogs(account).create(new Catalog("c2", null, Map.of())).id();
    assertThatThrownBy(() -> repos.tables(account).rename(t.id(), ExpectedGeneration.any(),
            NameScope.inCatalog(otherCatalog, List.of("b")), "t"))
        .isInstanceOfSatisfying(IcegateException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
  }

  @Test
  void deleteChecksDependents() {
    Resource<Namespace> db = namespace("db");
    Resource<Namespace> inner = namespace("db", "inner");
    assertCode(() -> namespaces().delete(db.id(), ExpectedGeneration.any()),
        ErrorCode.NAMESPACE_NOT_EMPTY, ResourceKind.NAMESPACE);
    namespaces().delete(inner.id(), ExpectedGeneration.of(1));
    Resource<Table> t = repos.tables(account).create(table(List.of("db"), "t"));
    assertCode(() -> namespaces().delete(db.id(), ExpectedGeneration.any()),
        ErrorCode.NAMESPACE_NOT_EMPTY, ResourceKind.NAMESPACE);
    assertCode(() -> repos.catalogs(account).delete(catalogId, ExpectedGeneration.any()),
        ErrorCode.DEPENDENCY_EXISTS, ResourceKind.CATALOG);
    assertThat(namespaceCounter()).isEqualTo(1);
    repos.tables(account).delete(t.id(), ExpectedGeneration.of(1));
    assertCode(() -> namespaces().delete(db.id(), ExpectedGeneration.of(9)),
        ErrorCode.GENERATION_MISMATCH, ResourceKind.NAMESPACE);
    assertThat(namespaces().delete(db.id(), ExpectedGeneration.of(1)).id()).isEqualTo(db.id());
    assertThat(namespaceCounter()).isZero();
    repos.catalogs(account).delete(catalogId, ExpectedGeneration.any());
    assertThat(repos.catalogs(account).get(catalogId)).isEmpty();
    assertCode(() -> repos.catalogs(account).delete(catalogId, ExpectedGeneration.any()),
        ErrorCode.NOT_FOUND, ResourceKind.CATALOG);
  }

  @Test
  void onlyAnEmptyNamespaceIsRenamed() {
    Resource<Namespace> a = namespace("a");
    Resource<Namespace> b = namespace("a", "b");
    repos.tables(account).create(table(List.of("a", "b"), "t"));
    // Renaming ["a","b"] to ["a","c"] would leave the table under a path that no longer exists.
    assertCode(() -> namespaces().rename(b.id(), ExpectedGeneration.any(),
            NameScope.inCatalog(catalogId, List.of("a")), "c"),
        ErrorCode.NAMESPACE_NOT_EMPTY, ResourceKind.NAMESPACE);
    assertCode(() -> namespaces().rename(a.id(), ExpectedGeneration.any(),
            NameScope.inCatalog(catalogId, List.of()), "z"),
        ErrorCode.NAMESPACE_NOT_EMPTY, ResourceKind.NAMESPACE);
    Resource<Namespace> empty = namespace("a", "empty");
    Resource<Namespace> moved = namespaces().rename(empty.id(), ExpectedGeneration.any(),
        NameScope.inCatalog(catalogId, List.of()), "top");
    assertThat(moved.spec().path()).containsExactly("top");
    // Properties change without a rename, whatever the namespace holds.
    namespaces().update(b.id(), ExpectedGeneration.of(1),
        b.spec().withProperties(Map.of("owner", "x")), ChangeKind.METADATA);
  }

  @Test
  void accountsAreDeletedOnlyThroughAccountDeletion() {
    assertThatThrownBy(() -> repos.accounts().delete(account, ExpectedGeneration.any()))
        .isInstanceOfSatisfying(IcegateException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
  }

  private long namespaceCounter() {
    return store.read(tx -> repos.counters().read(tx,
        repos.catalogs(account).ref(catalogId), ResourceKind.NAMESPACE, ReadConsistency.STRONG));
  }

  @Test
  void onConflictModes() {
    ResourceRepository<Catalog> catalogs = repos.catalogs(account);
    CreateOutcome<Catalog> existing =
        catalogs.create(new Catalog("prod", "other", Map.of()), OnConflict.RETURN_EXISTING);
    assertThat(existing.disposition()).isEqualTo(CreateOutcome.Disposition.EXISTING);
    assertThat(existing.resource().id()).isEqualTo(catalogId);
    assertThat(existing.resource().spec().warehouse()).isEqualTo("file:/w");

    namespace("db");
    assertCode(() -> catalogs.create(new Catalog("prod", null, Map.of()), OnConflict.REPLACE),
        ErrorCode.DEPENDENCY_EXISTS, ResourceKind.CATALOG);
    Resource<Catalog> empty = catalogs.create(new Catalog("empty", null, Map.of()));
    CreateOutcome<Catalog> replaced =
        catalogs.create(new Catalog("empty", "s3://x", Map.of()), OnConflict.REPLACE);
    assertThat(replaced.disposition()).isEqualTo(CreateOutcome.Disposition.REPLACED);
    assertThat(replaced.resource().id()).isNotEqualTo(empty.id());
    assertThat(catalogs.get(empty.id())).isEmpty();
    assertThat(catalogs.getByName(NameScope.ACCOUNT_WIDE, "empty").orElseThrow().id())
        .isEqualTo(replaced.resource().id());
  }

  @Test
  void operationsComposeInOneTransaction() {
    namespace("db");
    Resource<Table> a = repos.tables(account).create(table(List.of("db"), "a"));
    Resource<Table> b = repos.tables(account).create(table(List.of("db"), "b"));
    // Multi-table commit: the second update's precondition fails, so neither is published.
    assertThatThrownBy(() -> store.run(tx -> {
      repos.tables(account).update(tx, a.id(), ExpectedGeneration.of(1),
          a.spec().withMetadataLocation("s3://a2"), ChangeKind.METADATA);
      return repos.tables(account).update(tx, b.id(), ExpectedGeneration.of(5),
          b.spec().withMetadataLocation("s3://b2"), ChangeKind.METADATA);
    })).isInstanceOf(IcegateException.class);
    assertThat(repos.tables(account).get(a.id()).orElseThrow().generation()).isEqualTo(1);
    store.run(tx -> {
      repos.tables(account).update(tx, a.id(), ExpectedGeneration.of(1),
          a.spec().withMetadataLocation("s3://a2"), ChangeKind.METADATA);
      return repos.tables(account).update(tx, b.id(), ExpectedGeneration.of(1),
          b.spec().withMetadataLocation("s3://b2"), ChangeKind.METADATA);
    });
    assertThat(repos.tables(account).get(a.id()).orElseThrow().spec().metadataLocation())
        .isEqualTo("s3://a2");
    assertThat(repos.tables(account).get(b.id()).orElseThrow().generation()).isEqualTo(2);
  }

  @Test
  void pagesCountsAndPrefixes() {
    ResourceRepository<Catalog> catalogs = repos.catalogs(account);
    for (int i = 0; i < 25; i++) {
      catalogs.create(new Catalog(String.format("c%02d", i), null, Map.of()));
    }
    Listing all = Listing.of(NameScope.ACCOUNT_WIDE);
    Page<Resource<Catalog>> first = catalogs.list(all, PageRequest.first(10),
        ReadConsistency.EVENTUAL_ALLOWED);
    assertThat(first.items()).extracting(Resource::name)
        .containsExactly("c00", "c01", "c02", "c03", "c04", "c05", "c06", "c07", "c08", "c09");
    assertThat(names(catalogs, NameScope.ACCOUNT_WIDE)).hasSize(26).endsWith("c24", "prod");
    assertThat(catalogs.count(all, ReadConsistency.STRONG)).isEqualTo(26);
    Listing c1 = all.withNamePrefix("c1");
    assertThat(catalogs.count(c1, ReadConsistency.STRONG)).isEqualTo(10);
    Page<Resource<Catalog>> p = catalogs.list(c1, PageRequest.first(10), ReadConsistency.STRONG);
    assertThat(p.items()).hasSize(10);
    assertThat(p.next()).isEmpty(); // exactly one page: the extra entry read decides
    assertThat(catalogs.count(all.withNamePrefix("zz"), ReadConsistency.STRONG)).isZero();
    assertThatThrownBy(() -> catalogs.list(Listing.of(NameScope.inCatalog(catalogId, List.of())),
            PageRequest.first(), ReadConsistency.STRONG))
        .isInstanceOfSatisfying(IcegateException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
  }

  private static <S extends io.icegate.core.model.ResourceSpec> List<String> names(
      ResourceRepository<S> repo, NameScope scope) {
    List<String> names = new ArrayList<>();
    PageRequest page = PageRequest.first(2);
    while (true) {
      Page<Resource<S>> p = repo.list(Listing.of(scope), page, ReadConsistency.STRONG);
      p.items().forEach(r -> names.add(r.name()));
      if (p.next().isEmpty()) {
        return names;
      }
      page = page.next(p.nextPageToken());
    }
  }

  @Test
  void etagsNameResourceAndGeneration() {
    assertThat(Etags.generationOf(Etags.of("abc", 7), "abc")).isEqualTo(OptionalLong.of(7));
    assertThat(Etags.generationOf(Etags.of("abc", 7), "abd")).isEmpty();
    assertThat(Etags.generationOf("W/" + Etags.of("abc", 7), "abc")).isEmpty();
    assertThat(Etags.generationOf("\"abc/x\"", "abc")).isEmpty();
  }
}
