package io.icegate.core.credential;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The AES-256 key the CredentialStore encrypts with (DESIGN.md "Storage", Secrets): 32 bytes,
 * configured as base64 text in {@code ICEGATE_MASTER_KEY} or in a key file. Only the embedded
 * SQLite default may generate a key file under the data dir (mode 0600); a store shared by several
 * gateways (FoundationDB) needs the same configured key on every instance, so there startup fails
 * without one. {@link #toString()} never shows the key.
 */
public final class MasterKey {
  /** Environment variable holding the base64 key. */
  public static final String ENV = "ICEGATE_MASTER_KEY";
  /** Environment variable naming a key file. */
  public static final String FILE_ENV = "ICEGATE_MASTER_KEY_FILE";
  /** Name of the generated key file under the data dir. */
  public static final String GENERATED_FILE = "master.key";
  private static final int KEY_BYTES = 32;

  private final SecretKey key;
  private final String source;
  private final String setting;

  /**
   * @param source where the key came from, for messages
   * @param setting how to configure this same key on another gateway: {@link #ENV}, or the
   *     absolute path of the key file
   */
  private MasterKey(byte[] bytes, String source, String setting) {
    this.key = new SecretKeySpec(bytes, "AES");
    this.source = source;
    this.setting = setting;
    Arrays.fill(bytes, (byte) 0);
  }

  private static MasterKey fromFile(byte[] bytes, Path file, String note) {
    String path = file.toAbsolutePath().toString();
    return new MasterKey(bytes, path + note, path);
  }

  /** Whether a store may have its key generated, or needs one configured. */
  public enum Generation {
    /** The embedded SQLite default: a missing key is generated under the data dir. */
    ALLOWED,
    /** A shared store (FoundationDB): a missing key is a startup failure. */
    FORBIDDEN
  }

  /**
   * The master key, in this order: {@code envValue} (the value of {@link #ENV}), the file {@code
   * keyFile}, the generated file {@code dataDir/master.key} (read, or created when {@code
   * generation} allows).
   *
   * @param envValue base64 key or {@code null}
   * @param keyFile path of a key file or {@code null}
   * @throws UnusableKeyException when no key is configured and none may be generated, or the
   *     configured key is set but empty, not a file, or not 32 base64-encoded bytes (the message names the source, never the
   *     value)
   */
  public static MasterKey load(String envValue, Path keyFile, Path dataDir, Generation generation)
      throws IOException {
    if (envValue != null) {
      // Set but empty is a secret that failed to reach the process: never fall back to another key.
      if (envValue.isBlank()) {
        throw new UnusableKeyException(ENV + " is set but empty");
      }
      return new MasterKey(decode(envValue, ENV), ENV, ENV);
    }
    if (keyFile != null) {
      if (keyFile.toString().isBlank()) {
        throw new UnusableKeyException("the master key file is set but its path is empty");
      }
      if (!Files.exists(keyFile)) {
        throw new UnusableKeyException("master key file " + keyFile + " does not exist");
      }
      if (!Files.isRegularFile(keyFile)) {
        throw new UnusableKeyException("master key file " + keyFile + " is not a regular file");
      }
      return fromFile(decode(Files.readString(keyFile), keyFile.toString()), keyFile, "");
    }
    Path generated = dataDir.resolve(GENERATED_FILE);
    if (Files.isRegularFile(generated)) {
      return fromFile(decode(Files.readString(generated), generated.toString()), generated, "");
    }
    if (generation == Generation.FORBIDDEN) {
      throw new UnusableKeyException("a master key is required for this store: set " + ENV
          + " or a master key file (the same key on every gateway instance)");
    }
    byte[] bytes = new byte[KEY_BYTES];
    new SecureRandom().nextBytes(bytes);
    Files.createDirectories(dataDir);
    try {
      Files.createFile(generated, PosixFilePermissions.asFileAttribute(
          PosixFilePermissions.fromString("rw-------")));
    } catch (FileAlreadyExistsException e) {
      // Another process generated it first: use theirs.
      return fromFile(decode(Files.readString(generated), generated.toString()), generated, "");
    }
    Files.writeString(generated, Base64.getEncoder().encodeToString(bytes) + "\n",
        StandardCharsets.UTF_8);
    return fromFile(bytes, generated, " (generated)");
  }

  /** A key from raw bytes (tests); the array is wiped. */
  public static MasterKey of(byte[] bytes) {
    if (bytes.length != KEY_BYTES) {
      throw new IllegalArgumentException("a master key is 32 bytes");
    }
    return new MasterKey(bytes.clone(), "bytes", "bytes");
  }

  /**
   * Whether {@link #load} finds a key without generating one: {@code envValue} or {@code keyFile}
   * is set, or {@code dataDir} holds the generated file.
   */
  public static boolean configured(String envValue, Path keyFile, Path dataDir) {
    return envValue != null || keyFile != null
        || Files.isRegularFile(dataDir.resolve(GENERATED_FILE));
  }

  SecretKey key() {
    return key;
  }

  /** Where the key came from (the variable's name or a file path; never the key). */
  String source() {
    return source;
  }

  /**
   * How another gateway is given this key: {@link #ENV} or the key file's absolute path (never
   * the key). Recorded in the store's {@link MasterKeyCheck}, so a refusal can name it.
   */
  String setting() {
    return setting;
  }

  private static byte[] decode(String text, String source) {
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(text.strip());
    } catch (IllegalArgumentException e) {
      throw new UnusableKeyException("master key from " + source + " is not base64");
    }
    if (bytes.length != KEY_BYTES) {
      throw new UnusableKeyException(
          "master key from " + source + " must be 32 bytes, base64-encoded");
    }
    return bytes;
  }

  @Override
  public String toString() {
    return "MasterKey[from " + source + "]";
  }

  /**
   * The configured key cannot be used (missing, empty, not a file, not 32 base64 bytes): an
   * operator's mistake, reported at startup in one line. The message names the source, never the
   * value.
   */
  public static final class UnusableKeyException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    UnusableKeyException(String message) {
      super(message);
    }
  }
}
