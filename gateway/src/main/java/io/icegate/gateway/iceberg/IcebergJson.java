package io.icegate.gateway.iceberg;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import org.apache.iceberg.rest.RESTSerializers;

/**
 * The Jackson mapper for Iceberg REST bodies. iceberg-core's own {@code RESTObjectMapper} is
 * package-private, so this builds the same configuration: kebab-case names, unknown members
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
    ObjectMapper mapper = new ObjectMapper(new JsonFactory());
    mapper.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    mapper.setPropertyNamingStrategy(PropertyNamingStrategies.KEBAB_CASE);
    RESTSerializers.registerAll(mapper);
    return mapper;
  }
}
