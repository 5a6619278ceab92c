package io.icegate.core.durability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.core.credential.CredentialPublication;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.overlay.OperationRecords;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.OnConflict;
import io.icegate.core.testing.InvariantChecker;
import io.icegate.core.testing.MutableClock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Writers meeting a deletion's fence: a second deleter or a failed replace leaves the fence of the
 * running deletion in place, a dead deleter's fence is taken over once its lease lapses, and
 * writes arriving during or after an account deletion are refused.
 */
interface DeletionFenceRaces extends AdministratorFixture {

  @Test
  default void failedReplaceLeavesTheFenceOfARunningDelete() {
    String integration = integration("warehouse");
    String catalog = catalog("c");
    String other = catalog("other");
    String id = overlays().create(account(), new CatalogOverlay("o", integration, catalog,
        List.of(), List.of()), CreateRequest.plain()).outcome().resource().id();
    ResourceRef ref = repos().overlays(account()).ref(id);
    AtomicReference<Optional<Fence>> afterReplace = new AtomicReference<>();
    // the delete has fenced the Overlay (its first write) and retired it; before it removes it,
    // a replace fences it too and fails to publish (its new Catalog is deleted meanwhile)
    store().beforeWrite(2, () -> {
      Optional<Fence> deleteFence = store().read(tx -> repos().fences().read(tx, ref));
      store().beforeWrite(2, () -> catalogs().delete(account(), other, ExpectedGeneration.any()));
      assertThatThrownBy(() -> overlays().create(account(), new CatalogOverlay("o", integration,
          other, List.of(), List.of()), new CreateRequest(OnConflict.REPLACE, null)))
          .isInstanceOf(IcegateException.class);
      afterReplace.set(store().read(tx -> repos().fences().read(tx, ref)));
      assertThat(afterReplace.get()).isEqualTo(deleteFence).isPresent();
    });
    overlays().delete(account(), id, ExpectedGeneration.any());
    assertThat(store().fired()).isEqualTo(2);
    assertThat(afterReplace.get()).isPresent();
    assertThat(repos().overlays(account()).get(id)).isEmpty();
    assertClean();
  }

  @Test
  default void writesAfterAnAccountDeletionAreFenced() {
    String id = integration("warehouse");
    OperationRecords records = new OperationRecords(store());
    records.put(account(), "op-1", Map.of("state", "RUNNING"));
    new AccountDeletion(repos(), MutableClock.start(), 50,
        List.of(overlays().accountCleanup(), credentials().accountCleanup()))
        .delete(account(), ExpectedGeneration.any());
    // an asynchronous reconcile ending now, a credential prepared by a request in flight: the
    // deletion finished, so the account is gone (NOT_FOUND; FENCED while a deletion runs)
    assertGone(() -> records.put(account(), "op-1", Map.of("state", "SUCCEEDED")));
    assertGone(() -> records.replaceIf(account(), "op-1", json -> true, Map.of("state", "X")));
    assertGone(() -> new CredentialPublication(credentials()).prepare(account(), id, 1, SECOND));
    assertThat(InvariantChecker.of(store()).keysOfAccount(account())).isZero();
    assertThat(credentials().highestGeneration(id)).isZero();
    assertClean();
  }

  @Test
  default void idempotentCreateEndingFencedReleasesItsKey() {
    ResourceRef accountRef = ResourceRef.account(account());
    CreateRequest keyed = new CreateRequest(OnConflict.ERROR, "create-c");
    Catalog spec = new Catalog("c", "file:/w", Map.of());
    // an account delete fences the account between the create's reservation (its first write)
    // and its publication, then fails to delete the record and clears its fence again
    store().beforeWrite(2, () -> store().run(tx -> {
      repos().fences().install(tx, new Fence(accountRef, "deleter", java.time.Instant.EPOCH, null));
      return null;
    }));
    assertFenced(() -> catalogs().create(account(), spec, null, keyed));
    assertThat(store().fired()).isEqualTo(1);
    store().run(tx -> {
      repos().fences().clear(tx, accountRef);
      return null;
    });
    // the retry runs at once instead of IDEMPOTENCY_IN_PROGRESS for the rest of the lease
    var retried = catalogs().create(account(), spec, null, keyed);
    assertThat(retried.replayed()).isFalse();
    assertThat(catalogs().create(account(), spec, null, keyed).outcome())
        .isEqualTo(retried.outcome());
    assertClean();
  }

  @Test
  default void aSecondAccountDeleteLeavesTheFenceOfARunningOne() {
    ResourceRef ref = ResourceRef.account(account());
    AccountDeletion deletion = deletion();
    AtomicReference<Optional<Fence>> afterSecond = new AtomicReference<>();
    // the first delete has installed its fence (its first write); before it deletes the record, a
    // second delete runs, and its own record delete fails before commit
    store().beforeWrite(2, () -> {
      Optional<Fence> first = store().read(tx -> repos().fences().read(tx, ref));
      store().beforeWrite(2, () -> {
        throw new io.icegate.core.store.KvStoreFailureException("the second delete's store fails");
      });
      assertThatThrownBy(() -> deletion.delete(account(), ExpectedGeneration.any()))
          .isInstanceOf(io.icegate.core.store.KvStoreFailureException.class);
      afterSecond.set(store().read(tx -> repos().fences().read(tx, ref)));
      assertThat(afterSecond.get()).isEqualTo(first).isPresent();
    });
    assertThat(deletion.delete(account(), ExpectedGeneration.any()).recordDeleted()).isTrue();
    assertThat(store().fired()).isEqualTo(1); // the inner action threw: not counted
    assertThat(afterSecond.get()).isPresent();
    assertThat(repos().accounts().get(account())).isEmpty();
    assertThat(InvariantChecker.of(store()).keysOfAccount(account())).isZero();
    assertClean();
  }

  @Test
  default void aDeleteTakesOverTheFenceOfADeadDeleterOnceItsLeaseLapses() {
    ResourceRef ref = ResourceRef.account(account());
    String id = integration("warehouse");
    // a deleter installed its fence and died before deleting the record
    store().run(tx -> {
      repos().fences().install(tx, new Fence(ref, "dead", clock().instant(), null,
          clock().instant().plus(AccountDeletion.FENCE_LEASE)));
      return null;
    });
    // within the lease, a delete works under that fence: failing, it cannot unfence the account
    failRecordDelete();
    assertThat(fenceOf(ref).map(Fence::operationId)).contains("dead");
    assertThat(deletion().incomplete(10)).containsExactly(account());
    // after it, a delete takes the fence over: failing, it clears it as its own
    clock().advance(AccountDeletion.FENCE_LEASE.plusSeconds(1));
    failRecordDelete();
    assertThat(fenceOf(ref)).isEmpty();
    assertThat(deletion().delete(account(), ExpectedGeneration.any()).recordDeleted()).isTrue();
    assertThat(deletion().incomplete(10)).isEmpty();
    assertThat(InvariantChecker.of(store()).keysOfAccount(account())).isZero();
    assertThat(credentials().highestGeneration(id)).isZero();
    assertClean();
  }

  /** An account delete whose record delete (its second write) fails before commit. */
  private void failRecordDelete() {
    store().beforeWrite(2, () -> {
      throw new io.icegate.core.store.KvStoreFailureException("the record delete fails");
    });
    assertThatThrownBy(() -> deletion().delete(account(), ExpectedGeneration.any()))
        .isInstanceOf(io.icegate.core.store.KvStoreFailureException.class);
  }

  private Optional<Fence> fenceOf(ResourceRef ref) {
    return store().read(tx -> repos().fences().read(tx, ref));
  }

  private static void assertFenced(Runnable write) {
    assertThatThrownBy(write::run).isInstanceOfSatisfying(IcegateException.class,
        e -> assertThat(e.code()).isEqualTo(ErrorCode.FENCED));
  }

  /** A write into an account whose deletion finished: refused as for a missing account. */
  private static void assertGone(Runnable write) {
    assertThatThrownBy(write::run).isInstanceOfSatisfying(IcegateException.class,
        e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
  }
}
