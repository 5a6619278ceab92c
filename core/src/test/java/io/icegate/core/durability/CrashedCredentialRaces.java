package io.icegate.core.durability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.admin.model.IntegrationAuthentication;
import io.icegate.admin.model.IntegrationType;
import io.icegate.core.credential.CredentialPublication;
import io.icegate.core.credential.CredentialStore;
import io.icegate.core.model.Integration;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.OnConflict;
import io.icegate.core.testing.InvariantChecker;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A process dying between preparing a credential generation and publishing or discarding it: the
 * client's retry, an account deletion, or a later rotation must each leave only the published
 * secret.
 */
interface CrashedCredentialRaces extends AdministratorFixture {

  CreateRequest CRASHING_KEY = new CreateRequest(OnConflict.ERROR, "create-i");

  @Test
  default void aCreateRetriedAfterACrashBetweenPrepareAndDiscardKeepsOnlyItsSecret() {
    String owner = crashAfterPreparingAnIntegration();
    clock().advance(IdempotencySettings.DEFAULT.lease().plusSeconds(1));
    // the client's retry resumes with the reserved id after the lease lapsed
    Integration created = integrations().create(account(), crashingSpec(), SECOND, CRASHING_KEY)
        .outcome().resource().spec();
    assertThat(integrations().get(account(), owner).spec()).isEqualTo(created);
    long published = created.credentialGeneration();
    assertThat(credentials().read(owner, published)).contains(SECOND);
    for (long generation = 1; generation <= published + 1; generation++) {
      if (generation != published) {
        assertThat(credentials().read(owner, generation)).as("generation " + generation).isEmpty();
      }
    }
    List<CredentialStore.Candidate> noted = store().read(tx -> credentials().candidates(tx, account()));
    assertThat(noted).isEmpty();
    assertClean();
  }

  @Test
  default void anAccountDeletedAfterACrashBetweenPrepareAndDiscardKeepsNoSecret() {
    String owner = crashAfterPreparingAnIntegration();
    deletion().delete(account(), ExpectedGeneration.any());
    assertThat(credentials().highestGeneration(owner)).isZero();
    assertThat(InvariantChecker.of(store()).keysOfAccount(account())).isZero();
    assertClean();
  }

  @Test
  default void aGenerationLeftByACrashedRotationIsReclaimedByTheNextRotationOnceStale() {
    // a create's process dies after preparing its secret under its reserved id
    String other = crashAfterPreparingAnIntegration();
    String id = integration("warehouse");
    // a rotation's process dies after preparing generation 2, before publishing it
    store().beforeWrite(2, () -> {
      throw new Crash();
    });
    assertThatThrownBy(() -> rotate(id, SECOND)).isInstanceOf(Crash.class);
    CredentialStore.Candidate left = new CredentialStore.Candidate(id, 2);
    CredentialStore.Candidate ownerless = new CredentialStore.Candidate(other, 1);
    assertThat(noted()).containsExactlyInAnyOrder(left, ownerless);
    // a young note may be a publication under way: the next rotation leaves it
    rotate(id, THIRD);
    assertThat(noted()).containsExactlyInAnyOrder(left, ownerless);
    clock().advance(CredentialPublication.STALE_AFTER.plusMinutes(1));
    rotate(id, FIRST);
    assertThat(noted()).isEmpty();
    assertThat(credentials().read(id, 2)).isEmpty();
    assertThat(credentials().highestGeneration(other)).isZero();
    assertThat(credentials().read(id, integrations().get(account(), id).spec().credentialGeneration()))
        .contains(FIRST);
    assertClean();
  }

  private List<CredentialStore.Candidate> noted() {
    return store().read(tx -> credentials().candidates(tx, account()));
  }

  private static Integration crashingSpec() {
    return new Integration("crashing", IntegrationType.ICEBERG_REST, "https://c.example.com/v1",
        Map.of(), new IntegrationAuthentication.Bearer(), 0);
  }

  /**
   * An idempotent Integration create whose process dies after it reserved its id and prepared its
   * secret (its first two writes), before it publishes or discards. Returns the reserved id.
   */
  private String crashAfterPreparingAnIntegration() {
    store().beforeWrite(3, () -> {
      throw new Crash();
    });
    assertThatThrownBy(() -> integrations().create(account(), crashingSpec(), FIRST, CRASHING_KEY))
        .isInstanceOf(Crash.class);
    List<CredentialStore.Candidate> prepared =
        store().read(tx -> credentials().candidates(tx, account()));
    assertThat(prepared).hasSize(1);
    String owner = prepared.get(0).ownerId();
    assertThat(credentials().read(owner, prepared.get(0).generation())).contains(FIRST);
    assertThat(repos().integrations(account()).get(owner)).isEmpty();
    return owner;
  }

  /** The process dying: nothing after it runs, no catch block sees it. */
  final class Crash extends Error {
    Crash() {
      super("crash", null, false, false);
    }
  }
}
