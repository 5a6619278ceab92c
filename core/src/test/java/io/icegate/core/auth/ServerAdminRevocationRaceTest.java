package io.icegate.core.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.paging.PageRequest;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.testing.HookedStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 31: two administrators revoking the last two server-admin tokens leave one, whether the
 * other revocation commits just before this one's transaction (a {@link HookedStore} action) or
 * both run at once (the engine's optimistic conflicts).
 */
class ServerAdminRevocationRaceTest {
  private HookedStore store;
  private ApiTokens tokens;

  @BeforeEach
  void open() {
    store = new HookedStore(new EngineKvStore(InMemoryEngine.create()));
    tokens = new ApiTokens(store);
  }

  @AfterEach
  void close() {
    store.close();
  }

  private String serverAdmin(String name) {
    String token = ApiTokens.newToken();
    store.run(tx -> {
      tokens.put(tx, token, new TokenGrant("root", TokenRole.ADMIN, true, name));
      return null;
    });
    return ApiTokens.id(ApiTokens.digest(token));
  }

  private long serverAdmins() {
    return tokens.list("root", PageRequest.first()).items().stream()
        .filter(e -> e.grant().serverAdmin()).count();
  }

  @Test
  void aRevocationCommittedJustBeforeLeavesTheOtherUnrevocable() {
    String first = serverAdmin("bootstrap");
    String second = serverAdmin("second");
    store.beforeWrite(1, () -> tokens.revoke("root", second, true));
    assertThatThrownBy(() -> tokens.revoke("root", first, true))
        .isInstanceOfSatisfying(IcegateException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.LAST_SERVER_ADMIN_TOKEN));
    assertThat(store.fired()).isEqualTo(1);
    assertThat(serverAdmins()).isEqualTo(1);
  }

  @Test
  void concurrentRevocationsOfTheLastTwoLeaveOne() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 30; round++) {
        store.run(tx -> {
          tx.clearRange(KeySubspace.TOKENS.range().begin, KeySubspace.TOKENS.range().end);
          return null;
        });
        List<String> ids = List.of(serverAdmin("a"), serverAdmin("b"));
        CyclicBarrier start = new CyclicBarrier(2);
        List<Future<Boolean>> outcomes = new ArrayList<>();
        for (String id : ids) {
          outcomes.add(pool.submit(() -> {
            start.await();
            try {
              tokens.revoke("root", id, true);
              return true;
            } catch (IcegateException e) {
              assertThat(e.code()).isIn(ErrorCode.LAST_SERVER_ADMIN_TOKEN,
                  ErrorCode.STORE_CONTENTION);
              return false;
            }
          }));
        }
        int revoked = 0;
        for (Future<Boolean> outcome : outcomes) {
          revoked += outcome.get(30, TimeUnit.SECONDS) ? 1 : 0;
        }
        assertThat(revoked).as("round %d", round).isLessThanOrEqualTo(1);
        assertThat(serverAdmins()).as("round %d", round).isEqualTo(2 - revoked).isPositive();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void onlyAServerAdminRevokesAServerAdminToken() {
    String first = serverAdmin("bootstrap");
    serverAdmin("second");
    assertThatThrownBy(() -> tokens.revoke("root", first, false))
        .isInstanceOfSatisfying(IcegateException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION_DENIED));
    assertThat(serverAdmins()).isEqualTo(2);
  }
}
