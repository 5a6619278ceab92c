package io.icegate.gateway.iceberg;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.icegate.gateway.catalog.RepositoryCatalog;
import io.icegate.gateway.catalog.TableRead;
import io.icegate.gateway.catalog.TableReads;
import io.icegate.overlay.store.serve.TableSource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/**
 * Load-table with an {@code ETag} and a cache of serialized responses. A table's answer depends
 * only on its {@link TableSource} (an immutable metadata file, a managed table's capture named by
 * its capture generation and digest, or a managed table's definition named by its digest) and the
 * {@code snapshots} mode, so the ETag is a digest of the two and a cached body never goes stale.
 * Every load is one store transaction ({@link TableReads#readable}): a hit costs point reads of
 * the Catalog and table records, visibility and capture pointer; a miss reads the managed metadata
 * in the same transaction (a local table's metadata file after it). {@code If-None-Match} with
 * the current ETag answers 304 without a body. A managed table is served from its capture
 * (upstream snapshots and refs, as captured) or, before its first capture, from its stored
 * definition (no snapshots, no {@code metadata-location}); never with an upstream call.
 *
 * <p>A client whose {@code Accept-Encoding} admits gzip (iceberg-core's client always says so) gets
 * the body gzip-compressed, from the cache too: table metadata JSON shrinks about tenfold, and
 * compressing once per cached body instead of once per answer keeps a hit's CPU cost what it is
 * without compression. The two codings are two representations (RFC 9110 8.8.3): the gzip one's
 * ETag carries a {@code --gzip} suffix (Jetty's convention), {@code If-None-Match} accepts either
 * tag of the current answer, and every answer says {@code Vary: Accept-Encoding}.
 */
public final class TableLoads {
  private static final String GZIP_SUFFIX = "--gzip";

  /** A serialized response, its gzip form, and the ETag of each. */
  private record Cached(String etag, String gzipEtag, byte[] body, byte[] gzip) {
    Cached(String etag, byte[] body) {
      this(etag, gzipTagOf(etag), body, compress(body));
    }
  }

  private final Cache<String, Cached> bodies;

  /** @param maxBytes total size of cached response bodies */
  public TableLoads(long maxBytes) {
    this.bodies = Caffeine.newBuilder()
        .maximumWeight(maxBytes)
        .<String, Cached>weigher(
            (key, cached) -> cached.body().length + cached.gzip().length + key.length())
        .build();
  }

  /**
   * The {@code snapshots} query parameter: {@code all} (default) or {@code refs}.
   *
   * @throws IllegalArgumentException for any other value
   */
  static String snapshotsMode(IcebergRequest request) {
    String mode = request.query().getOrDefault("snapshots", "all");
    if (!mode.equals("all") && !mode.equals("refs")) {
      throw new IllegalArgumentException("snapshots must be all or refs: " + mode);
    }
    return mode;
  }

  /** {@code metadata} as the snapshots {@code mode} serves it. */
  static TableMetadata forMode(TableMetadata metadata, String mode) {
    return mode.equals("refs")
        ? TableMetadata.buildFrom(metadata).suppressHistoricalSnapshots().build()
        : metadata;
  }

  /**
   * Load-table without credentials: one store transaction, which reads the table's metadata only
   * when the answer needs a body that is not cached.
   */
  IcebergReply load(RepositoryCatalog catalog, IcebergRequest request) {
    String mode = snapshotsMode(request);
    TableRead read = catalog.tableReads().readable(request.table(),
        source -> bodies.getIfPresent(cacheKey(mode, source)) == null
            && !matches(request.ifNoneMatch(), etag(source.key(), mode)));
    return answer(catalog, request, read);
  }

  /**
   * The plain answer (ETag, cache, 304) from {@code read}, made by {@link TableReads#readable}
   * for {@code request}'s table; read with its metadata, it needs no store transaction more.
   */
  IcebergReply answer(RepositoryCatalog catalog, IcebergRequest request, TableRead read) {
    String mode = snapshotsMode(request);
    Cached cached = bodies.getIfPresent(cacheKey(mode, read.source()));
    String etag = cached != null ? cached.etag() : etag(read.source().key(), mode);
    boolean gzip = request.acceptsGzip();
    if (matches(request.ifNoneMatch(), etag)) {
      return new IcebergReply(304, null,
          Map.of("ETag", gzip ? gzipTagOf(etag) : etag, "Vary", "Accept-Encoding"));
    }
    if (cached == null) {
      if (read.metadata() == null) {
        // The cached answer was evicted since the read found it: read again, with the metadata.
        read = catalog.tableReads().readable(request.table(), source -> true);
      }
      // The ETag and cache key name the source the metadata was read with.
      TableSource.Served served = read.served();
      cached = new Cached(etag(served.source().key(), mode), serialize(served, mode));
      bodies.put(cacheKey(mode, served.source()), cached);
    }
    return gzip
        ? new IcebergReply(200, cached.gzip(), Map.of("ETag", cached.gzipEtag(),
            "Content-Encoding", "gzip", "Vary", "Accept-Encoding"))
        : new IcebergReply(200, cached.body(), Map.of("ETag", cached.etag(),
            "Vary", "Accept-Encoding"));
  }

  private static String cacheKey(String mode, TableSource source) {
    return mode + '|' + source.key();
  }

  private static byte[] compress(byte[] body) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(body.length / 4 + 64);
    try (GZIPOutputStream compressor = new GZIPOutputStream(out, 8192)) {
      compressor.write(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array stream does not fail
    }
    return out.toByteArray();
  }

  /** The tag of the gzip representation: {@code "x"} becomes {@code "x--gzip"}. */
  private static String gzipTagOf(String etag) {
    return etag.substring(0, etag.length() - 1) + GZIP_SUFFIX + '"';
  }

  private static byte[] serialize(TableSource.Served served, String mode) {
    TableMetadata metadata = forMode(served.metadata(), mode);
    LoadTableResponse response = LoadTableResponse.builder().withTableMetadata(metadata).build();
    try {
      return IcebergJson.mapper().writeValueAsBytes(response);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize table metadata " + served.source(), e);
    }
  }

  static String etag(String sourceKey, String mode) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256")
          .digest((mode + '\n' + sourceKey).getBytes(StandardCharsets.UTF_8));
      return "\"" + HexFormat.of().formatHex(digest, 0, 16) + "\"";
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * RFC 9110 13.1.2: weak comparison, a list of tags or {@code *}; either coding's tag of the
   * current answer matches, since both name the same content.
   */
  private static boolean matches(String ifNoneMatch, String etag) {
    if (ifNoneMatch == null) {
      return false;
    }
    String gzipEtag = gzipTagOf(etag);
    for (String candidate : ifNoneMatch.split(",")) {
      String tag = candidate.strip();
      if (tag.startsWith("W/")) {
        tag = tag.substring(2);
      }
      if (tag.equals("*") || tag.equals(etag) || tag.equals(gzipEtag)) {
        return true;
      }
    }
    return false;
  }
}
