package io.icegate.core.assembly;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.core.credential.MasterKey;
import io.icegate.core.model.Account;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.KvStoreException;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.testing.NoContributions;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/** The readiness probe reads what requests read, writes nothing, and fails with the store. */
class StoreReadinessTest {

  @Test
  void passesOnAnOpenStoreWithOrWithoutAccountsAndWritesNothing() {
    InMemoryEngine engine = InMemoryEngine.create();
    KvStore store = new EngineKvStore(engine);
    CoreServices services = new CoreServices(store, Clock.systemUTC(), NoContributions.RULES,
        CoreSettings.unchecked(MasterKey.of(new byte[32])));
    StoreReadiness readiness = services.readiness();
    assertThatCode(readiness::check).doesNotThrowAnyException();
    services.repositories().accounts().create(new Account("acme"));
    long writes = store.stats().committedWrites();
    assertThatCode(readiness::check).doesNotThrowAnyException();
    assertThat(store.stats().committedWrites()).isEqualTo(writes);

    engine.close();
    assertThatThrownBy(readiness::check).isInstanceOf(KvStoreException.class);
  }
}
