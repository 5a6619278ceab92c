package io.icegate.core.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A warehouse or storage location normalized for comparison: scheme, authority and path segments.
 * {@code file:///p}, {@code file:/p}, {@code file://localhost/p} and {@code /p} are the same,
 * {@code s3a://} and {@code s3n://} are {@code s3://}, empty and {@code .} segments are dropped.
 * A {@code ..} segment has no normal form ({@link #of} answers null): what it names depends on
 * who resolves it, so it is refused rather than guessed.
 *
 * <p>One definition for both uses: the gateway's check that a table location lies inside its
 * Catalog's warehouse, and the warehouse claims that keep Catalogs of different accounts apart
 * ({@link WarehouseClaims}). Segments are compared whole, so {@code s3://b/w} does not contain
 * {@code s3://b/wx}.
 *
 * @param scheme lower case, {@code s3} for every S3 spelling
 * @param authority the bucket or host as given, empty for local files
 * @param segments the path's segments, none empty
 */
public record WarehousePath(String scheme, String authority, List<String> segments) {

  public WarehousePath {
    segments = List.copyOf(segments);
  }

  /** The normal form of {@code location}; null when it has a {@code ..} segment or no scheme. */
  public static WarehousePath of(String location) {
    String scheme;
    String authority;
    String path;
    if (location.startsWith("/")) {
      scheme = "file";
      authority = "";
      path = location;
    } else {
      int colon = location.indexOf(':');
      if (colon <= 0) {
        return null;
      }
      scheme = location.substring(0, colon).toLowerCase(Locale.ROOT);
      String rest = location.substring(colon + 1);
      if (rest.startsWith("//")) {
        int slash = rest.indexOf('/', 2);
        authority = slash < 0 ? rest.substring(2) : rest.substring(2, slash);
        path = slash < 0 ? "" : rest.substring(slash);
      } else {
        authority = "";
        path = rest;
      }
      if (scheme.equals("s3a") || scheme.equals("s3n")) {
        scheme = "s3";
      }
      if (scheme.equals("file") && authority.equals("localhost")) {
        authority = "";
      }
    }
    List<String> segments = new ArrayList<>();
    for (String s : path.split("/")) {
      if (s.equals("..")) {
        return null;
      }
      if (!s.isEmpty() && !s.equals(".")) {
        segments.add(s);
      }
    }
    return new WarehousePath(scheme, authority, segments);
  }

  /** Whether this lies strictly inside {@code root} (the root itself is not inside). */
  public boolean within(WarehousePath root) {
    return root != null && sameStore(root) && segments.size() > root.segments.size()
        && startsWith(root);
  }

  /** Whether this and {@code other} are equal or one contains the other. */
  public boolean overlaps(WarehousePath other) {
    return sameStore(other) && (startsWith(other) || other.startsWith(this));
  }

  /** The first {@code n} segments: an ancestor of this path, or itself when {@code n} is all. */
  public WarehousePath prefix(int n) {
    return new WarehousePath(scheme, authority, segments.subList(0, n));
  }

  @Override
  public String toString() {
    return scheme + "://" + authority + "/" + String.join("/", segments);
  }

  private boolean sameStore(WarehousePath other) {
    return scheme.equals(other.scheme) && authority.equals(other.authority);
  }

  private boolean startsWith(WarehousePath root) {
    return segments.size() >= root.segments.size()
        && segments.subList(0, root.segments.size()).equals(root.segments);
  }
}
