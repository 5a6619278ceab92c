package io.icegate.core.paging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.Namespace;
import io.icegate.core.model.Resource;
import io.icegate.core.repo.Listing;
import io.icegate.core.repo.Repositories;
import io.icegate.core.repo.ResourceRepository;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.ReadConsistency;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.testing.MutableClock;
import io.icegate.core.testing.NoContributions;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PageTokensTest {
  private KvStore store;
  private Repositories repos;
  private String account;
  private String catalogId;
  private ResourceRepository<Namespace> namespaces;

  @BeforeEach
  void setUp() {
    store = new EngineKvStore(InMemoryEngine.create());
    repos = new Repositories(store, MutableClock.start(), NoContributions.RULES);
    account = repos.accounts().create(new Account("a")).id();
    catalogId = repos.catalogs(account).create(new Catalog("c", null, Map.of())).id();
    namespaces = repos.namespaces(account);
    for (String top : List.of("a", "b")) {
      namespaces.create(new Namespace(catalogId, List.of(top), Map.of()));
      for (int i = 0; i < 5; i++) {
        namespaces.create(new Namespace(catalogId, List.of(top, "n" + i), Map.of()));
      }
    }
  }

  @AfterEach
  void tearDown() {
    store.close();
  }

  private Listing children(String parent) {
    return Listing.of(NameScope.inCatalog(catalogId, List.of(parent)));
  }

  private String tokenOf(Listing listing) {
    return namespaces.list(listing, PageRequest.first(2), ReadConsistency.STRONG).nextPageToken();
  }

  private void assertRejected(Listing listing, String token) {
    assertThatThrownBy(() -> namespaces.list(listing, new PageRequest(token, 2),
            ReadConsistency.STRONG))
        .isInstanceOfSatisfying(IcegateException.class, e -> {
          assertThat(e.code()).isEqualTo(ErrorCode.INVALID_PAGE_TOKEN);
          assertThat(e.httpStatus()).isEqualTo(400);
        });
  }

  @Test
  void tokenResumesItsOwnListing() {
    String token = tokenOf(children("a"));
    Page<Resource<Namespace>> second =
        namespaces.list(children("a"), new PageRequest(token, 2), ReadConsistency.STRONG);
    assertThat(second.items()).extracting(Resource::name).containsExactly("n2", "n3");
  }

  @Test
  void tokenFromAnotherListingIsRejected() {
    assertRejected(children("b"), tokenOf(children("a")));
    // Another kind over the same account.
    String catalogToken = repos.catalogs(account).list(Listing.of(NameScope.ACCOUNT_WIDE),
        PageRequest.first(1), ReadConsistency.STRONG).nextPageToken();
    assertThat(catalogToken).isNull(); // a single catalog: one page
    repos.catalogs(account).create(new Catalog("d", null, Map.of()));
    catalogToken = repos.catalogs(account).list(Listing.of(NameScope.ACCOUNT_WIDE),
        PageRequest.first(1), ReadConsistency.STRONG).nextPageToken();
    assertRejected(children("a"), catalogToken);
    // The same listing in another account.
    String other = repos.accounts().create(new Account("b")).id();
    assertThatThrownBy(() -> repos.catalogs(other).list(Listing.of(NameScope.ACCOUNT_WIDE),
            new PageRequest(tokenOfCatalogs(), 1), ReadConsistency.STRONG))
        .isInstanceOfSatisfying(IcegateException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_PAGE_TOKEN));
  }

  private String tokenOfCatalogs() {
    return repos.catalogs(account).list(Listing.of(NameScope.ACCOUNT_WIDE), PageRequest.first(1),
        ReadConsistency.STRONG).nextPageToken();
  }

  @Test
  void editedTokenIsRejected() {
    String token = tokenOf(children("a"));
    byte[] bytes = Base64.getUrlDecoder().decode(token);
    for (int i = 0; i < bytes.length; i++) {
      byte[] edited = bytes.clone();
      edited[i] ^= 0x01;
      assertRejected(children("a"), Base64.getUrlEncoder().withoutPadding().encodeToString(edited));
    }
    assertRejected(children("a"), token.substring(0, token.length() - 2));
    assertRejected(children("a"), "not*base64");
    // An empty token is no token: the first page.
    assertThat(namespaces.list(children("a"), new PageRequest("", 2), ReadConsistency.STRONG)
        .items()).extracting(Resource::name).containsExactly("n0", "n1");
  }

  @Test
  void tokenAfterTheFilterChangedIsRejected() {
    String token = tokenOf(children("a"));
    assertRejected(children("a").withNamePrefix("n"), token);
    String prefixed = tokenOf(children("a").withNamePrefix("n"));
    assertRejected(children("a").withNamePrefix("n1"), prefixed);
    assertRejected(children("a"), prefixed);
  }

  @Test
  void everyInstanceOverTheStoreAcceptsEveryOthersTokens() {
    String token = tokenOf(children("a"));
    Repositories second = new Repositories(store, MutableClock.start(), NoContributions.RULES);
    Page<Resource<Namespace>> page = second.namespaces(account)
        .list(children("a"), new PageRequest(token, 2), ReadConsistency.STRONG);
    assertThat(page.items()).extracting(Resource::name).containsExactly("n2", "n3");
    // A store with another key rejects it.
    try (KvStore otherStore = new EngineKvStore(InMemoryEngine.create())) {
      PageTokens otherKey = PageTokens.load(otherStore);
      PageTokens sameKey = PageTokens.load(store);
      String issued = sameKey.issue("listing", new byte[] {1, 2, 3});
      assertThat(sameKey.resume("listing", issued)).containsExactly(1, 2, 3);
      assertThatThrownBy(() -> otherKey.resume("listing", issued))
          .isInstanceOf(IcegateException.class);
    }
  }
}
