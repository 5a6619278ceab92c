package io.icegate.core.credential;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CredentialStoreTest {
  private static final SecretValues SECRET = new SecretValues(Map.of("token", "hunter2-xyz"));
  private final KvStore store = new EngineKvStore(InMemoryEngine.create());
  private final CredentialStore credentials =
      new CredentialStore(store, MasterKey.of(new byte[32]), Clock.systemUTC());

  @Test
  void roundTripsAndNeverOverwritesAGeneration() {
    assertThat(credentials.putIfAbsent("a", "owner", 1, SECRET)).isTrue();
    assertThat(credentials.putIfAbsent("a", "owner", 1,
        new SecretValues(Map.of("token", "other")))).isFalse();
    assertThat(credentials.read("owner", 1)).contains(SECRET);
    assertThat(credentials.highestGeneration("owner")).isEqualTo(1);
    java.util.List<CredentialStore.Candidate> candidates =
        store.read(tx -> credentials.candidates(tx, "a"));
    assertThat(candidates).containsExactly(new CredentialStore.Candidate("owner", 1));
  }

  @Test
  void anotherMasterKeyIsAnOperatorErrorNamingNoSecret() {
    credentials.putIfAbsent("a", "owner", 1, SECRET);
    byte[] other = new byte[32];
    other[0] = 1;
    CredentialStore restartedWithAnotherKey =
        new CredentialStore(store, MasterKey.of(other), Clock.systemUTC());
    assertThatThrownBy(() -> restartedWithAnotherKey.read("owner", 1))
        .isInstanceOfSatisfying(IcegateException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.MASTER_KEY_MISMATCH))
        .hasMessageContaining("master key").hasMessageNotContaining("hunter2");
  }

  @Test
  void ciphertextIsBoundToOwnerAndGeneration() {
    credentials.putIfAbsent("a", "owner", 1, SECRET);
    byte[] sealed = store.read(tx -> tx.get(KeyLayout.credential("owner", 1)));
    assertThat(new String(sealed, java.nio.charset.StandardCharsets.ISO_8859_1))
        .doesNotContain("hunter2");
    store.run(tx -> {
      tx.set(KeyLayout.credential("other-owner", 1), sealed);
      tx.set(KeyLayout.credential("owner", 2), sealed);
      return null;
    });
    assertThatThrownBy(() -> credentials.read("other-owner", 1))
        .hasMessageContaining("cannot be decrypted").hasMessageNotContaining("hunter2");
    assertThatThrownBy(() -> credentials.read("owner", 2))
        .hasMessageContaining("cannot be decrypted")
        .isInstanceOfSatisfying(IcegateException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.MASTER_KEY_MISMATCH));
  }

  @Test
  void anotherMasterKeyCannotRead() {
    credentials.putIfAbsent("a", "owner", 1, SECRET);
    byte[] other = new byte[32];
    other[0] = 1;
    CredentialStore wrong = new CredentialStore(store, MasterKey.of(other), Clock.systemUTC());
    assertThatThrownBy(() -> wrong.read("owner", 1)).hasMessageContaining("master key");
  }

  @Test
  void toStringsRedact() {
    assertThat(SECRET.toString()).contains("token").doesNotContain("hunter2");
    assertThat(MasterKey.of(new byte[32]).toString()).doesNotContain("AAAA");
  }

  @Test
  void sqliteMayGenerateAKeyFileWithMode0600(@TempDir Path dir) throws Exception {
    MasterKey key = MasterKey.load(null, null, dir, MasterKey.Generation.ALLOWED);
    Path file = dir.resolve(MasterKey.GENERATED_FILE);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    assertThat(key.toString()).doesNotContain(Files.readString(file).strip());
    // the same key is read back on the next start
    CredentialStore first = new CredentialStore(store, key, Clock.systemUTC());
    first.putIfAbsent("a", "o", 1, SECRET);
    CredentialStore second = new CredentialStore(store,
        MasterKey.load(null, null, dir, MasterKey.Generation.ALLOWED), Clock.systemUTC());
    assertThat(second.read("o", 1)).contains(SECRET);
  }

  @Test
  void sharedStoreRequiresAConfiguredKey(@TempDir Path dir) {
    assertThatThrownBy(() -> MasterKey.load(null, null, dir, MasterKey.Generation.FORBIDDEN))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("ICEGATE_MASTER_KEY");
    assertThat(Files.exists(dir.resolve(MasterKey.GENERATED_FILE))).isFalse();
    assertThatThrownBy(() -> MasterKey.load("not-base64!!", null, dir,
        MasterKey.Generation.FORBIDDEN)).hasMessageNotContaining("not-base64");
  }
}
