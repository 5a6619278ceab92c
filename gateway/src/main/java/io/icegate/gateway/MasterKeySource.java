package io.icegate.gateway;

import io.icegate.core.credential.MasterKey;
import io.icegate.core.credential.MasterKeyCheck;
import io.icegate.core.store.KvStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where the CredentialStore's master key comes from, as {@code icegate serve} read it from its
 * environment: {@code ICEGATE_MASTER_KEY} (the key itself), else the file named by {@code
 * ICEGATE_MASTER_KEY_FILE}, else (SQLite only) a key file generated under the data dir.
 *
 * @param value the base64 key, or null
 * @param file the key file, or null
 */
public record MasterKeySource(String value, Path file) {
  /** Environment variable naming the key file. */
  public static final String FILE_ENV = MasterKey.FILE_ENV;

  /** No key configured: the data dir's key file, generated when allowed. */
  public static final MasterKeySource NONE = new MasterKeySource(null, null);

  /** The source {@code environment} names ({@link MasterKey#ENV}, {@link #FILE_ENV}). */
  public static MasterKeySource fromEnvironment(Map<String, String> environment) {
    String file = environment.get(FILE_ENV);
    return new MasterKeySource(environment.get(MasterKey.ENV), file == null ? null : Path.of(file));
  }

  /**
   * The key, as {@link MasterKey#load} finds it from this source, checked against {@code store}
   * ({@link MasterKeyCheck}: a key the store's secrets were not written with is refused).
   */
  MasterKey load(KvStore store, String storeName, Path dataDir, MasterKey.Generation generation)
      throws IOException {
    return MasterKeyCheck.load(store, storeName, value, file, dataDir, generation);
  }

  /** Shows no key: settings are logged. */
  @Override
  public String toString() {
    return "MasterKeySource[value=" + (value == null ? "unset" : "***") + ", file=" + file + "]";
  }
}
