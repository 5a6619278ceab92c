package io.icegate.core.repo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.core.model.ModelJson;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceSpec;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Reads and writes the stored JSON of {@code Resource<S>} for one spec type. */
public final class ResourceCodec<S extends ResourceSpec> {
  private final ObjectMapper mapper = ModelJson.mapper();
  private final JavaType type;

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
    try {
      return mapper.readValue(bytes, type);
    } catch (IOException e) {
      throw new UncheckedIOException("stored resource is not readable", e);
    }
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
}
