package io.icegate.sparkit.testing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
}
