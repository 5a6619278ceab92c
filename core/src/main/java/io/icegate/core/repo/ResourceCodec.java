package io.icegate.core.repo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.core.model.ModelJson;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * Reads and writes the stored JSON of {@code Resource<S>} for one spec type.
 *
 * <p>Recently decoded resources are kept by their exact stored bytes: the same bytes always decode
 * to the same (immutable) resource, so a record read again unchanged costs a hash and a comparison
 * instead of a JSON parse. The gateway reads the Catalog and the table record on every load-table,
 * and parsing them was about a third of its CPU time per request. A changed record has other
 * bytes, so an entry never goes stale; the cache only bounds how much is kept.
 */
public final class ResourceCodec<S extends ResourceSpec> {
  /** Stored bytes kept per codec, in bytes (each entry also holds its decoded resource). */
  private static final long DECODED_BYTES = 4L * 1024 * 1024;

  private final ObjectMapper mapper = ModelJson.mapper();
  private final JavaType type;
  private final Cache<StoredBytes, Resource<S>> decoded = Caffeine.newBuilder()
      .maximumWeight(DECODED_BYTES)
      .<StoredBytes, Resource<S>>weigher((key, resource) -> key.bytes().length)
      .build();

  /** The codec of resources whose spec is {@code specType}. */
  public ResourceCodec(Class<S> specType) {
    this.type = mapper.getTypeFactory().constructParametricType(Resource.class, specType);
  }

  /** The stored bytes of {@code resource}. */
  public byte[] write(Resource<S> resource) {
    try {
      return mapper.writeValueAsBytes(resource);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize " + resource.kind().label(), e);
    }
  }

  /** The resource in {@code bytes}. */
  public Resource<S> read(byte[] bytes) {
    StoredBytes key = new StoredBytes(bytes);
    Resource<S> known = decoded.getIfPresent(key);
    if (known != null) {
      return known;
    }
    Resource<S> resource;
    try {
      resource = mapper.readValue(bytes, type);
    } catch (IOException e) {
      throw new UncheckedIOException("stored resource is not readable", e);
    }
    // A copy: the caller's array is not ours to keep.
    decoded.put(new StoredBytes(bytes.clone(), key.hash()), resource);
    return resource;
  }

  /** {@code resource} as a JSON tree (embedded in receipts). */
  public JsonNode toTree(Resource<S> resource) {
    return mapper.valueToTree(resource);
  }

  /** The resource in a JSON tree written by {@link #toTree}. */
  public Resource<S> fromTree(JsonNode tree) {
    try {
      return mapper.treeToValue(tree, type);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException("recorded resource is not readable", e);
    }
  }

  /** Stored bytes compared by content, their hash computed once. */
  private record StoredBytes(byte[] bytes, int hash) {
    StoredBytes(byte[] bytes) {
      this(bytes, Arrays.hashCode(bytes));
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof StoredBytes that && hash == that.hash
          && Arrays.equals(bytes, that.bytes);
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public String toString() {
      return "StoredBytes[" + bytes.length + " bytes]";
    }
  }
}
