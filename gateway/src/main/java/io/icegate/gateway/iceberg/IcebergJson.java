package io.icegate.gateway.iceberg;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.rest.RESTSerializers;

/**
 * The Jackson mapper for Iceberg REST bodies. iceberg-core's own {@code RESTObjectMapper} is
 * package-private, so this builds the same configuration: private fields visible, kebab-case names, unknown members
 * ignored (forward compatibility with newer clients) and every Iceberg type registered through
 * {@link RESTSerializers#registerAll}. Unlike iceberg-core's mapper it reads no value of the wrong
 * JSON type: a number, boolean or null is not a string, nor a number or string a boolean (the
 * tryout's {@code {"namespace":[1,2]}} became the namespace {@code 1.2} and answered 404), so a
 * client's mistyped body is a 400 naming the member instead of another request than it meant.
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
    // registered after Iceberg's: the last module registered for a type wins
    mapper.registerModule(new SimpleModule("icegate-strict-namespaces")
        .addDeserializer(Namespace.class, new NamespaceArrays.Deserializer()));
    refuseScalarCoercion(mapper, LogicalType.Textual, CoercionInputShape.Integer,
        CoercionInputShape.Float, CoercionInputShape.Boolean);
    refuseScalarCoercion(mapper, LogicalType.Boolean, CoercionInputShape.Integer,
        CoercionInputShape.Float, CoercionInputShape.String);
    refuseScalarCoercion(mapper, LogicalType.Integer, CoercionInputShape.Float,
        CoercionInputShape.String, CoercionInputShape.Boolean);
    refuseScalarCoercion(mapper, LogicalType.Float, CoercionInputShape.String,
        CoercionInputShape.Boolean);
    return mapper;
  }

  private static void refuseScalarCoercion(
      ObjectMapper mapper, LogicalType target, CoercionInputShape... shapes) {
    for (CoercionInputShape shape : shapes) {
      mapper.coercionConfigFor(target).setCoercion(shape, CoercionAction.Fail);
    }
  }
}
