package io.icegate.gateway.iceberg;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.icegate.gateway.catalog.RepositoryCatalog;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/**
 * Load-table with an {@code ETag} and a cache of serialized responses. A table's answer depends
 * only on its metadata location (an immutable file) and the {@code snapshots} mode, so the ETag
 * is a digest of the two and a cached body never goes stale. A hit costs one point read of the
 * table pointer; {@code If-None-Match} with the current ETag answers 304 without a body.
 */
public final class TableLoads {
  private final Cache<String, byte[]> bodies;

  /** @param maxBytes total size of cached response bodies */
  public TableLoads(long maxBytes) {
    this.bodies = Caffeine.newBuilder()
        .maximumWeight(maxBytes)
        .<String, byte[]>weigher((key, body) -> body.length + key.length())
        .build();
  }

  IcebergReply load(RepositoryCatalog catalog, IcebergRequest request) {
    String mode = request.query().getOrDefault("snapshots", "all");
    if (!mode.equals("all") && !mode.equals("refs")) {
      throw new IllegalArgumentException("snapshots must be all or refs: " + mode);
    }
    TableIdentifier ident = request.table();
    String location = catalog.metadataLocation(ident);
    String etag = etag(location, mode);
    Map<String, String> headers = Map.of("ETag", etag);
    if (matches(request.ifNoneMatch(), etag)) {
      return new IcebergReply(304, null, headers);
    }
    byte[] body = bodies.get(mode + '|' + location, key -> serialize(catalog, location, mode));
    return new IcebergReply(200, body, headers);
  }

  private static byte[] serialize(RepositoryCatalog catalog, String location, String mode) {
    TableMetadata metadata = catalog.metadataAt(location);
    if (mode.equals("refs")) {
      metadata = TableMetadata.buildFrom(metadata).suppressHistoricalSnapshots().build();
    }
    LoadTableResponse response = LoadTableResponse.builder().withTableMetadata(metadata).build();
    try {
      return IcebergJson.mapper().writeValueAsBytes(response);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize table metadata " + location, e);
    }
  }

  static String etag(String location, String mode) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256")
          .digest((mode + '\n' + location).getBytes(StandardCharsets.UTF_8));
      return "\"" + HexFormat.of().formatHex(digest, 0, 16) + "\"";
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** RFC 9110 13.1.2: weak comparison, a list of tags or {@code *}. */
  private static boolean matches(String ifNoneMatch, String etag) {
    if (ifNoneMatch == null) {
      return false;
    }
    for (String candidate : ifNoneMatch.split(",")) {
      String tag = candidate.strip();
      if (tag.equals("*") || tag.equals(etag) || tag.equals("W/" + etag)) {
        return true;
      }
    }
    return false;
  }
}
