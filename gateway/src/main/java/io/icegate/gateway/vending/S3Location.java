package io.icegate.gateway.vending;

import java.util.Optional;

/**
 * An S3 location split into bucket and key prefix, for scoping credentials to it.
 *
 * @param bucket the bucket name
 * @param keyPrefix the key prefix without leading or trailing slashes; empty for a whole bucket.
 *     Inner slashes are kept as written (S3 keys may contain {@code //})
 */
public record S3Location(String bucket, String keyPrefix) {

  /**
   * Parses {@code s3://bucket/key}, also with the Hadoop schemes {@code s3a://} and {@code
   * s3n://} that Iceberg's S3FileIO accepts.
   *
   * @return empty for another scheme or a location without a bucket
   */
  public static Optional<S3Location> parse(String location) {
    if (location == null) {
      return Optional.empty();
    }
    int scheme = location.indexOf("://");
    if (scheme < 0) {
      return Optional.empty();
    }
    String name = location.substring(0, scheme);
    if (!name.equals("s3") && !name.equals("s3a") && !name.equals("s3n")) {
      return Optional.empty();
    }
    String rest = location.substring(scheme + 3);
    int slash = rest.indexOf('/');
    String bucket = slash < 0 ? rest : rest.substring(0, slash);
    if (bucket.isEmpty()) {
      return Optional.empty();
    }
    String key = slash < 0 ? "" : rest.substring(slash + 1);
    int start = 0;
    while (start < key.length() && key.charAt(start) == '/') {
      start++;
    }
    int end = key.length();
    while (end > start && key.charAt(end - 1) == '/') {
      end--;
    }
    return Optional.of(new S3Location(bucket, key.substring(start, end)));
  }
}
