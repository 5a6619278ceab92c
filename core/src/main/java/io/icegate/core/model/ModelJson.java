package io.icegate.core.model;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * The JSON form of stored records (resources, receipts, fences). One configuration for every
 * record so stored bytes are deterministic: properties and map entries sorted, timestamps as ISO-8601
 * strings, unknown members ignored (a newer version may add members an older one reads).
 */
public final class ModelJson {
  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .addModule(new JavaTimeModule())
          .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
          .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
          .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .build();

  private ModelJson() {}

  /** The shared mapper. Do not reconfigure it. */
  public static ObjectMapper mapper() {
    return MAPPER;
  }
}
