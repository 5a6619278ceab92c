package io.icegate.gateway.iceberg;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import org.apache.iceberg.rest.RESTSerializers;

/**
 * The Jackson mapper for Iceberg REST bodies. iceberg-core's own {@code RESTObjectMapper} is
 * package-private, so this builds the same configuration: private fields visible, kebab-case names, unknown members
 * ignored (forward compatibility with newer clients) and every Iceberg type registered through
 * {@link RESTSerializers#registerAll}.
 */
public final class IcebergJson {
  private static final ObjectMapper MAPPER = create();

  private IcebergJson() {}

  /** The shared, thread-safe mapper. */
  public static ObjectMapper mapper() {
    return MAPPER;
  }

  private static ObjectMapper create() {
    JsonFactory factory = new JsonFactoryBuilder()
        .configure(JsonFactory.Feature.INTERN_FIELD_NAMES, false)
        .configure(JsonFactory.Feature.FAIL_ON_SYMBOL_HASH_OVERFLOW, false)
        .build();
    ObjectMapper mapper = new ObjectMapper(factory);
    // Iceberg's request and response classes are plain classes with private fields.
    mapper.setVisibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY);
    mapper.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    mapper.setPropertyNamingStrategy(PropertyNamingStrategies.KEBAB_CASE);
    RESTSerializers.registerAll(mapper);
    return mapper;
  }
}
