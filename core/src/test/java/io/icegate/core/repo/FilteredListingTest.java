package io.icegate.core.repo;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.Namespace;
import io.icegate.core.model.Resource;
import io.icegate.core.model.Table;
import io.icegate.core.paging.Page;
import io.icegate.core.paging.PageRequest;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.ReadConsistency;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.testing.MutableClock;
import io.icegate.core.testing.NoContributions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A listing filtered inside the range read (the gateway hides tables that are not query-visible):
 * pages are full while accepted entries follow, tokens resume after the last entry examined, a
 * run of rejected entries longer than the scan limit yields short pages with tokens, never an
 * unbounded read, and walking every page gives exactly the accepted entries once, in order.
 */
class FilteredListingTest {
  private KvStore store;
  private Repositories repos;
  private String account;
  private String catalogId;

  @BeforeEach
  void setUp() {
    store = new EngineKvStore(InMemoryEngine.create());
    repos = new Repositories(store, MutableClock.start(), NoContributions.RULES);
    account = repos.accounts().create(new Account("acme")).id();
    catalogId = repos.catalogs(account).create(new Catalog("prod", "file:/w", Map.of())).id();
    repos.namespaces(account).create(new Namespace(catalogId, List.of("ns"), Map.of()));
  }

  @AfterEach
  void tearDown() {
    store.close();
  }

  private Listing listing() {
    return Listing.of(NameScope.inCatalog(catalogId, List.of("ns")));
  }

  /** Tables t0000..t(n-1) in one namespace, created in batches. */
  private void tables(int n) {
    for (int from = 0; from < n; from += 200) {
      int start = from;
      store.run(tx -> {
        for (int i = start; i < Math.min(n, start + 200); i++) {
          repos.tables(account).create(tx, new Table(catalogId, List.of("ns"),
              String.format("t%04d", i), "s3://b/t" + i + "/v1.metadata.json", Map.of()));
        }
        return null;
      });
    }
  }

  private Page<Resource<Table>> page(PageRequest request, Predicate<Resource<Table>> keep) {
    return store.read(tx -> repos.tables(account).list(tx, listing(), request,
        ReadConsistency.STRONG, keep));
  }

  private List<String> walk(int pageSize, Predicate<Resource<Table>> keep, List<Integer> sizes) {
    List<String> names = new ArrayList<>();
    PageRequest request = PageRequest.first(pageSize);
    while (true) {
      Page<Resource<Table>> page = page(request, keep);
      sizes.add(page.items().size());
      page.items().forEach(t -> names.add(t.name()));
      if (page.next().isEmpty()) {
        return names;
      }
      request = request.next(page.nextPageToken());
    }
  }

  private static boolean even(Resource<Table> t) {
    return Integer.parseInt(t.name().substring(1)) % 2 == 0;
  }

  @Test
  void pagesAreFullPastRejectedEntriesAndTheWalkIsExact() {
    tables(25);
    List<Integer> sizes = new ArrayList<>();
    List<String> names = walk(4, FilteredListingTest::even, sizes);
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 25; i += 2) {
      expected.add(String.format("t%04d", i));
    }
    assertThat(names).containsExactlyElementsOf(expected);
    // 13 accepted entries in pages of 4: full pages, then the rest
    assertThat(sizes).containsExactly(4, 4, 4, 1);
  }

  @Test
  void withoutRejectionsItIsThePlainPage() {
    tables(7);
    Page<Resource<Table>> plain = repos.tables(account).list(listing(), PageRequest.first(3),
        ReadConsistency.STRONG);
    Page<Resource<Table>> filtered = page(PageRequest.first(3), t -> true);
    assertThat(filtered.items()).extracting(Resource::name)
        .containsExactlyElementsOf(plain.items().stream().map(Resource::name).toList());
    assertThat(filtered.next()).isPresent();
    // the filtered page's token resumes where the plain one does
    Page<Resource<Table>> next = repos.tables(account).list(listing(),
        PageRequest.first(3).next(filtered.nextPageToken()), ReadConsistency.STRONG);
    assertThat(next.items()).extracting(Resource::name).containsExactly("t0003", "t0004", "t0005");
  }

  @Test
  void aLongRejectedRunGivesShortPagesWithTokensNotAnUnboundedRead() {
    int n = NameIndexListing.FILTER_SCAN_LIMIT * 2 + 50;
    tables(n);
    String lastName = String.format("t%04d", n - 1);
    AtomicInteger tested = new AtomicInteger();
    Predicate<Resource<Table>> onlyLast = t -> {
      tested.incrementAndGet();
      return t.name().equals(lastName);
    };
    Page<Resource<Table>> first = page(PageRequest.first(5), onlyLast);
    assertThat(first.items()).isEmpty();
    assertThat(first.next()).isPresent();
    assertThat(tested.get()).isLessThanOrEqualTo(5 + NameIndexListing.FILTER_SCAN_LIMIT + 6);

    List<Integer> sizes = new ArrayList<>();
    assertThat(walk(5, onlyLast, sizes)).containsExactly(lastName);
    assertThat(sizes.size()).isGreaterThanOrEqualTo(3);
  }

  @Test
  void nothingAcceptedIsOneEmptyLastPage() {
    tables(10);
    Page<Resource<Table>> page = page(PageRequest.first(4), t -> false);
    assertThat(page.items()).isEmpty();
    assertThat(page.next()).isEmpty();
  }
}
