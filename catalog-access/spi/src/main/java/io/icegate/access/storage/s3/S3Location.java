package io.icegate.access.storage.s3;

import java.net.URI;
import java.util.Locale;

/**
 * An object-store location {@code scheme://bucket/key} split into its parts: what an S3 request
 * needs. The schemes are those readers of Iceberg and Delta tables write, {@code s3}, {@code s3a}
 * and {@code s3n}; the scheme is kept as given so that a location rebuilt from a key
 * ({@link #withKey}) reads like the one it came from.
 *
 * @param scheme the scheme in lower case
 * @param bucket the bucket
 * @param key the object key or key prefix, without a leading {@code /}; empty at the bucket root
 */
public record S3Location(String scheme, String bucket, String key) {

  /**
   * @throws IllegalArgumentException for another scheme, no bucket, or text that is not a URI
   */
  public static S3Location parse(String location) {
    URI uri = URI.create(location);
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("s3") && !scheme.equals("s3a") && !scheme.equals("s3n")) {
      throw new IllegalArgumentException("storage location scheme '" + scheme + "' is not S3");
    }
    if (uri.getHost() == null) {
      throw new IllegalArgumentException("storage location " + location + " names no bucket");
    }
    String key = uri.getPath() == null ? "" : uri.getPath();
    return new S3Location(scheme, uri.getHost(), key.startsWith("/") ? key.substring(1) : key);
  }

  /**
   * A location as a file system path names it (Delta Kernel's and Hadoop's form): the key is taken
   * as written, with no URI decoding, so a space, {@code %}, {@code #} or {@code ?} in it is
   * itself. {@link #parse} reads a URI, where {@code %2F} would be a slash.
   *
   * @throws IllegalArgumentException for another scheme or no bucket
   */
  public static S3Location ofPath(String path) {
    int schemeEnd = path.indexOf("://");
    String scheme = schemeEnd < 0 ? "" : path.substring(0, schemeEnd).toLowerCase(Locale.ROOT);
    if (!scheme.equals("s3") && !scheme.equals("s3a") && !scheme.equals("s3n")) {
      throw new IllegalArgumentException("storage location scheme '" + scheme + "' is not S3");
    }
    String rest = path.substring(schemeEnd + 3);
    int slash = rest.indexOf('/');
    String bucket = slash < 0 ? rest : rest.substring(0, slash);
    if (bucket.isEmpty()) {
      throw new IllegalArgumentException("storage location " + path + " names no bucket");
    }
    return new S3Location(scheme, bucket, slash < 0 ? "" : rest.substring(slash + 1));
  }

  /** Another object of the same bucket, as a location with this one's scheme. */
  public String withKey(String otherKey) {
    return scheme + "://" + bucket + "/" + otherKey;
  }

  @Override
  public String toString() {
    return withKey(key);
  }
}
