package io.icegate.sparkit.testing;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.io.FileInfo;

/**
 * Lists objects in an S3-compatible store through Iceberg's own {@link S3FileIO} (the classes
 * Spark uses, from the Spark runtime and {@code iceberg-aws-bundle}), so the tests check what
 * really landed in the bucket without a second S3 client.
 */
public final class S3Objects {
  private S3Objects() {}

  /**
   * The S3FileIO settings that reach {@code store} (a child s3proxy) with one identity:
   * endpoint, path style, region and the static keys, for {@link #list} and {@link #upload}.
   */
  public static Map<String, String> fileIoProperties(FixtureProcess store, String accessKeyId,
      String secretAccessKey) {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("s3.endpoint", store.address());
    settings.put("s3.path-style-access", "true");
    settings.put("client.region", store.setting("region"));
    settings.put("s3.access-key-id", accessKeyId);
    settings.put("s3.secret-access-key", secretAccessKey);
    return settings;
  }

  /**
   * The locations ({@code s3://bucket/key}) of every object under {@code prefix}.
   *
   * @param fileIoProperties S3FileIO settings: {@code s3.endpoint}, {@code s3.path-style-access},
   *     {@code client.region}, {@code s3.access-key-id}, {@code s3.secret-access-key}
   */
  public static List<String> list(Map<String, String> fileIoProperties, String prefix) {
    List<String> locations = new ArrayList<>();
    try (S3FileIO io = new S3FileIO()) {
      io.initialize(new HashMap<>(fileIoProperties)); // Iceberg's builders need a mutable map
      for (FileInfo file : io.listPrefix(prefix)) {
        locations.add(file.location());
      }
    }
    return locations;
  }

  /**
   * Copies every file under {@code directory} to {@code prefix} ({@code s3://bucket/key}), keeping
   * relative paths, that is not there yet ({@code _last_checkpoint} is overwritten): how a test
   * puts a table written on local disk onto the object store, and each later commit's files.
   *
   * @param fileIoProperties as {@link #list}
   */
  public static void upload(Map<String, String> fileIoProperties, Path directory, String prefix)
      throws IOException {
    try (S3FileIO io = new S3FileIO(); Stream<Path> files = Files.walk(directory)) {
      io.initialize(new HashMap<>(fileIoProperties));
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        String key = directory.relativize(file).toString().replace(File.separatorChar, '/');
        // as a writer on the bucket leaves a table: its files are written once (a rewrite would
        // give a commit file a new modification time no real log shows); _last_checkpoint is
        // the one file Delta overwrites
        if (!file.getFileName().toString().equals("_last_checkpoint")
            && io.newInputFile(prefix + "/" + key).exists()) {
          continue;
        }
        try (OutputStream out = io.newOutputFile(prefix + "/" + key).createOrOverwrite()) {
          Files.copy(file, out);
        }
      }
    }
  }
}
