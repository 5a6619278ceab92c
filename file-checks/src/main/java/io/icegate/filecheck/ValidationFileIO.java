package io.icegate.filecheck;

import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.access.storage.VendedStorageCredentials;
import io.icegate.access.storage.s3.VendedS3Client;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.Files;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The read-only {@link FileIO} through which a federated table's manifests and data files are
 * validated (issue 10 "Validation"). Object-store locations ({@code s3}, {@code s3a}, {@code s3n})
 * are read by Iceberg's {@link S3FileIO} over an S3 client whose only credentials are the ones the
 * upstream vended for the table ({@link VendedS3Client}: a static provider, so no environment,
 * profile, instance role or catalog keys can stand in). {@code file:} and scheme-less locations are
 * read only when the server allows local files ({@code --allow-local-files}), because otherwise an
 * upstream could point the server at its own disk.
 *
 * <p>A location it will not read fails with {@link StorageRefusedException} carrying a sentence
 * for the operator; there is never a fallback to other credentials. Writes and deletes are refused
 * with {@link UnsupportedOperationException}. Close it to release the S3 client.
 */
public final class ValidationFileIO implements FileIO {

  private static final long serialVersionUID = 1L;

  /** The refusal when the upstream vended nothing for a table on an object store. */
  public static final String NO_CREDENTIALS =
      "upstream vended no storage credentials for this table";

  /** The refusal for a {@code file:} location while local files are not allowed. */
  public static final String LOCAL_FILES_NOT_ALLOWED =
      "local file locations are read only when the server runs with --allow-local-files";

  private static final List<String> S3_SCHEMES = List.of("s3", "s3a", "s3n");

  /** Non-secret S3FileIO settings that may come from the vended properties. */
  private static final List<String> VENDED_SETTINGS =
      List.of(
          VendedStorageCredentials.S3_ENDPOINT,
          VendedStorageCredentials.S3_REGION,
          VendedStorageCredentials.S3_PATH_STYLE_ACCESS);

  /** Either a FileIO for the table, or the one reason none can be had. */
  public sealed interface Opened permits Ready, Refused {}

  /** The table's files can be read through {@code io}; the caller closes it. */
  public record Ready(ValidationFileIO io) implements Opened {}

  /** Nothing of the table can be read; {@code problem} names the table location. */
  public record Refused(FileProblem problem) implements Opened {}

  private final transient S3Client s3Client;
  private final transient S3FileIO s3;
  private final String refusalForS3;
  private final boolean allowLocalFiles;

  private ValidationFileIO(
      S3Client s3Client, S3FileIO s3, String refusalForS3, boolean allowLocalFiles) {
    this.s3Client = s3Client;
    this.s3 = s3;
    this.refusalForS3 = refusalForS3;
    this.allowLocalFiles = allowLocalFiles;
  }

  /**
   * The FileIO for one table, or why there is none.
   *
   * @param tableLocation the table's base location (Iceberg {@code location}); decides which
   *     storage must be readable up front, so that a table without files still fails when its
   *     storage is unreadable
   * @param credentials what the upstream vended for this table; empty when it vended nothing
   * @param storageSettings non-secret S3 settings of the connection ({@code s3.endpoint}, {@code
   *     client.region}, {@code s3.path-style-access}); the vended properties override them. Never
   *     credentials: keys in here are ignored
   * @param allowLocalFiles the server setting {@code --allow-local-files}
   * @param policy applied to every address the S3 endpoint resolves to
   * @return {@link Ready} or {@link Refused}; never throws for a bad location or missing keys
   */
  public static Opened open(
      String tableLocation,
      Optional<VendedStorageCredentials> credentials,
      Map<String, String> storageSettings,
      boolean allowLocalFiles,
      OutboundAddressPolicy policy) {
    String scheme = scheme(tableLocation);
    if (isLocal(scheme) && !allowLocalFiles) {
      return refused(tableLocation, LOCAL_FILES_NOT_ALLOWED);
    }
    if (!isLocal(scheme) && !S3_SCHEMES.contains(scheme)) {
      return refused(tableLocation, unsupported(scheme));
    }
    if (credentials.isEmpty()) {
      if (S3_SCHEMES.contains(scheme)) {
        return refused(tableLocation, NO_CREDENTIALS);
      }
      return new Ready(new ValidationFileIO(null, null, NO_CREDENTIALS, allowLocalFiles));
    }
    Map<String, String> keys = credentials.get().properties();
    if (blank(keys.get(VendedStorageCredentials.S3_ACCESS_KEY_ID))
        || blank(keys.get(VendedStorageCredentials.S3_SECRET_ACCESS_KEY))) {
      return refused(
          tableLocation,
          "the storage credentials vended for this table lack an S3 access key id or secret key");
    }
    Map<String, String> settings = new HashMap<>();
    for (String name : VENDED_SETTINGS) {
      String value = keys.getOrDefault(name, storageSettings.get(name));
      if (value != null) {
        settings.put(name, value);
      }
    }
    S3Client client = VendedS3Client.open(credentials.get(), settings, policy);
    S3FileIO s3 = new S3FileIO(() -> client);
    s3.initialize(settings);
    return new Ready(new ValidationFileIO(client, s3, null, allowLocalFiles));
  }

  /**
   * A FileIO for {@code file:} locations only, for tests and local demos; object-store locations
   * are refused as having no credentials.
   */
  public static ValidationFileIO localOnly() {
    return new ValidationFileIO(null, null, NO_CREDENTIALS, true);
  }

  @Override
  public InputFile newInputFile(String path) {
    return route(path).newInputFile(path);
  }

  @Override
  public InputFile newInputFile(String path, long length) {
    return route(path).newInputFile(path, length);
  }

  @Override
  public OutputFile newOutputFile(String path) {
    throw new UnsupportedOperationException("validation only reads files");
  }

  @Override
  public void deleteFile(String path) {
    throw new UnsupportedOperationException("validation only reads files");
  }

  @Override
  public void close() {
    if (s3 != null) {
      s3.close();
    }
    if (s3Client != null) {
      s3Client.close();
    }
  }

  private FileIO route(String path) {
    String scheme = scheme(path);
    if (S3_SCHEMES.contains(scheme)) {
      if (s3 == null) {
        throw new StorageRefusedException(refusalForS3);
      }
      return s3;
    }
    if (isLocal(scheme)) {
      if (!allowLocalFiles) {
        throw new StorageRefusedException(LOCAL_FILES_NOT_ALLOWED);
      }
      return LocalFiles.INSTANCE;
    }
    throw new StorageRefusedException(unsupported(scheme));
  }

  /** Plain local files through Iceberg's own {@link Files}, read-only. */
  private enum LocalFiles implements FileIO {
    INSTANCE;

    @Override
    public InputFile newInputFile(String path) {
      return Files.localInput(path);
    }

    @Override
    public OutputFile newOutputFile(String path) {
      throw new UnsupportedOperationException("validation only reads files");
    }

    @Override
    public void deleteFile(String path) {
      throw new UnsupportedOperationException("validation only reads files");
    }
  }

  private static Refused refused(String location, String message) {
    return new Refused(new FileProblem(location, "", message));
  }

  private static String unsupported(String scheme) {
    return "locations with scheme " + scheme + " cannot be validated (only S3 is supported)";
  }

  /** The lower-cased scheme, or {@code ""} for a plain path. */
  static String scheme(String location) {
    int colon = location.indexOf(':');
    int slash = location.indexOf('/');
    if (colon <= 0 || (slash >= 0 && slash < colon)) {
      return "";
    }
    return location.substring(0, colon).toLowerCase(Locale.ROOT);
  }

  private static boolean isLocal(String scheme) {
    return scheme.isEmpty() || scheme.equals("file");
  }

  private static boolean blank(String value) {
    return value == null || value.isBlank();
  }
}
