package io.icegate.core.credential;

import com.apple.foundationdb.Range;
import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.model.ModelJson;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.ReadTransaction.Direction;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * The store's record of which master key its secrets are encrypted with, checked when a gateway
 * starts, so that a gateway with another key refuses to start instead of answering
 * MASTER_KEY_MISMATCH (500) on its first credential read. Several gateways share one store (a
 * SQLite file opened from two data dirs, or FoundationDB): each has its own key configuration,
 * and only the store can tell whether they agree.
 *
 * <p>The check is a value in {@link KeySubspace#META} ({@link KeyLayout#META_MASTER_KEY_CHECK}):
 * a fixed text sealed under the key ({@link SealedBox}), and how that key was configured (the
 * variable's name or the key file's path, never the key), which a refusal names. The first start
 * on a store without secrets writes it; a store written before checks existed is checked against
 * its first stored secret instead and is left as it is (opening such a store writes nothing).
 */
public final class MasterKeyCheck {
  private static final byte[] AAD = "icegate master key check".getBytes(StandardCharsets.UTF_8);
  private static final byte[] TEXT = "icegate".getBytes(StandardCharsets.UTF_8);

  private MasterKeyCheck() {}

  /**
   * The master key for {@code store}, loaded as {@link MasterKey#load} does and checked against
   * the store: on a store that already holds a check or secrets no key is generated, and a key
   * that does not open them is refused.
   *
   * @param storeName the store as the operator named it (for messages)
   * @throws MasterKey.UnusableKeyException the key is unusable, missing, or not the store's (the
   *     message names the key's setting and the one the store was written with, never a value)
   */
  public static MasterKey load(KvStore store, String storeName, String envValue, Path keyFile,
      Path dataDir, MasterKey.Generation generation) throws IOException {
    Found found = store.read(MasterKeyCheck::find);
    if (found != null && !MasterKey.configured(envValue, keyFile, dataDir)) {
      throw new MasterKey.UnusableKeyException("store " + storeName + " already holds secrets"
          + " under a master key" + written(found) + ", and this gateway has none: neither "
          + MasterKey.ENV + " nor " + MasterKey.FILE_ENV + " is set and data dir "
          + dataDir.toAbsolutePath() + " has no " + MasterKey.GENERATED_FILE + "; " + advice(found)
          + " and start again; no key was generated");
    }
    MasterKey key = MasterKey.load(envValue, keyFile, dataDir,
        found == null ? generation : MasterKey.Generation.FORBIDDEN);
    if (found == null) {
      found = record(store, key);
    }
    if (!found.opensWith(key)) {
      throw new MasterKey.UnusableKeyException("store " + storeName + " was written under"
          + " another master key than this gateway's, which comes from " + key.source()
          + written(found) + "; " + advice(found) + " and start again; nothing was changed");
    }
    return key;
  }

  /** Writes the check under {@code key} unless a check or a secret is there by now; the one there. */
  private static Found record(KvStore store, MasterKey key) {
    byte[] value = encode(SealedBox.seal(key, AAD, TEXT), key.setting());
    // Re-running after an unknown commit finds the check it wrote; two first starts conflict, and
    // the loser checks its key against the winner's record.
    return store.run(Idempotence.IDEMPOTENT, tx -> {
      Found there = find(tx);
      if (there != null) {
        return there;
      }
      tx.set(KeyLayout.meta(KeyLayout.META_MASTER_KEY_CHECK), value);
      return decode(value);
    });
  }

  /** The check, else the first stored secret, else null. */
  private static Found find(io.icegate.core.store.ReadTransaction tx) {
    byte[] check = tx.get(KeyLayout.meta(KeyLayout.META_MASTER_KEY_CHECK));
    if (check != null) {
      return decode(check);
    }
    Range secrets = KeySubspace.CREDENTIALS.range();
    List<KeyValue> first = tx.getRange(secrets.begin, secrets.end, 1, Direction.FORWARD);
    if (first.isEmpty()) {
      return null;
    }
    Tuple owner = KeySubspace.CREDENTIALS.unpack(first.get(0).key());
    return new Found(first.get(0).value(),
        CredentialStore.aad(owner.getString(0), owner.getLong(1)), null);
  }

  private static byte[] encode(byte[] sealed, String setting) {
    try {
      return ModelJson.mapper().writeValueAsBytes(Map.of(
          "sealed", Base64.getEncoder().encodeToString(sealed), "keySetting", setting));
    } catch (IOException e) {
      throw new IllegalStateException("cannot serialize the master key check", e);
    }
  }

  private static Found decode(byte[] value) {
    try {
      var node = ModelJson.mapper().readTree(value);
      return new Found(Base64.getDecoder().decode(node.path("sealed").asText()), AAD,
          node.path("keySetting").asText(null));
    } catch (IOException | IllegalArgumentException e) {
      throw new IllegalStateException("the store's master key check is not readable");
    }
  }

  /** How the store's key was configured, as a clause after "a master key" (no parentheses). */
  private static String written(Found found) {
    return found.setting() == null ? ": its stored secrets do not decrypt with this key"
        : ": the store's key was configured by " + found.setting();
  }

  /**
   * What the operator sets to start the gateway: the setting the store names, or the two ways to
   * give a key; an imperative clause.
   */
  private static String advice(Found found) {
    if (found.setting() == null) {
      return "set " + MasterKey.ENV + " (or " + MasterKey.FILE_ENV + ") to the key the store was"
          + " created with";
    }
    return found.setting().equals(MasterKey.ENV)
        ? "set " + MasterKey.ENV + " to the key the store was created with, the value the"
            + " gateway that wrote it has"
        : "set " + MasterKey.FILE_ENV + "=" + found.setting() + ", the key file the store was"
            + " created with, or " + MasterKey.ENV + " to that file's content";
  }

  /**
   * What a key must open: the check's sealed text or a stored secret, with its authenticated data.
   *
   * @param setting how the check's key was configured; null for a secret (not recorded)
   */
  private record Found(byte[] sealed, byte[] aad, String setting) {
    boolean opensWith(MasterKey key) {
      if (!SealedBox.wellFormed(sealed)) {
        return false;
      }
      return SealedBox.open(key, aad, sealed).map(plain -> {
        java.util.Arrays.fill(plain, (byte) 0);
        return true;
      }).orElse(false);
    }
  }
}
