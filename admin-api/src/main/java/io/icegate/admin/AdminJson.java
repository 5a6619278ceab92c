package io.icegate.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.icegate.admin.model.InvalidMemberException;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import java.io.IOException;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The admin API's JSON: strict on input (unknown members, wrong types, scalar coercions and
 * unknown enum values are MALFORMED_REQUEST), deterministic on output. Error messages name the
 * member path and never quote the input, so a secret sent in a wrong place is not echoed.
 */
public final class AdminJson {
  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .addModule(new JavaTimeModule())
      .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      // a member given twice is refused, not silently the last one (what did the client mean?)
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
      .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
      .build();

  static {
    MAPPER.coercionConfigFor(LogicalType.Textual)
        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
  }

  private AdminJson() {}

  /** The shared mapper. */
  public static ObjectMapper mapper() {
    return MAPPER;
  }

  /**
   * {@code body} as {@code type}.
   *
   * @throws IcegateException MALFORMED_REQUEST naming the member, never its value
   */
  public static <T> T read(byte[] body, Class<T> type) {
    if (body.length == 0) {
      throw malformed("a JSON body is required");
    }
    T value;
    try {
      value = MAPPER.readValue(body, type);
    } catch (IOException e) {
      throw describe(e);
    }
    if (value == null) {
      // Jackson reads the JSON literal null as a null object rather than failing.
      throw malformed("the body is not the expected JSON object");
    }
    return value;
  }

  /**
   * {@code body} as a tree, to tell a member given as JSON null from an absent one (after {@link
   * #read} accepted the body).
   */
  static JsonNode tree(byte[] body) {
    try {
      return MAPPER.readTree(body);
    } catch (IOException e) {
      throw describe(e);
    }
  }

  /** {@code node} as {@code type}, with the same error mapping as {@link #read}. */
  public static <T> T convert(JsonNode node, Class<T> type, String prefix) {
    try {
      return MAPPER.treeToValue(node, type);
    } catch (IOException | IllegalArgumentException e) {
      IcegateException described = describe(e);
      throw malformed(prefix + ": " + described.getMessage().replace("malformed request: ", ""));
    }
  }

  /** The JSON bytes of {@code value}. */
  public static byte[] write(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize a response", e);
    }
  }

  /**
   * Fails unless {@code value} is present.
   *
   * @throws IcegateException MALFORMED_REQUEST naming {@code member}
   */
  public static <T> T require(T value, String member) {
    if (value == null) {
      throw malformed("member " + member + " is required");
    }
    return value;
  }

  static IcegateException malformed(String what) {
    return new IcegateException(ErrorCode.MALFORMED_REQUEST, null, what);
  }

  private static IcegateException describe(Exception e) {
    IcegateException direct = modelCheck(e);
    if (direct != null) {
      return direct;
    }
    if (e instanceof UnrecognizedPropertyException unknown) {
      return malformed("unknown member " + path(unknown));
    }
    if (e instanceof InvalidTypeIdException invalid) {
      // at the top of the body the path is empty: name the value's type instead
      String path = path(invalid);
      return malformed("unknown or missing type of " + (path.isEmpty()
          ? "the " + invalid.getBaseType().getRawClass().getSimpleName() : path));
    }
    String duplicate = duplicateMember(e);
    if (duplicate != null) {
      // inside a map (e.g. properties) Jackson reports it wrapped, with the map's path
      String where = e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()
          ? " in " + path(mapping) : "";
      return malformed("duplicate member " + duplicate + where);
    }
    if (e instanceof InvalidFormatException invalid && !invalid.getPath().isEmpty()
        && invalid.getTargetType() != null && invalid.getTargetType().isEnum()) {
      // the accepted values, as the body spells them; never the value given
      return malformed("member " + path(invalid) + " must be one of "
          + enumValues(invalid.getTargetType()));
    }
    if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
      IcegateException coded = modelCheck(mapping.getCause());
      if (coded != null) {
        return coded; // a record's own validation (e.g. an over-long name), already secret-free
      }
      return malformed("member " + path(mapping) + " is missing or has the wrong type or value");
    }
    if (e instanceof JsonMappingException mapping) {
      IcegateException coded = modelCheck(mapping.getCause());
      return coded != null ? coded : malformed("the body is not the expected JSON object");
    }
    return malformed("the body is not valid JSON");
  }

  /** An enum's values as the mapper writes them (its JSON names), e.g. {@code [UNITY, ...]}. */
  private static String enumValues(Class<?> type) {
    return Arrays.stream(type.getEnumConstants())
        .map(value -> {
          try {
            return MAPPER.writeValueAsString(value).replace("\"", "");
          } catch (JsonProcessingException e) {
            return String.valueOf(value);
          }
        })
        .collect(Collectors.joining(", ", "[", "]"));
  }

  /**
   * The name of the member given twice, when strict duplicate detection refused the body (the
   * parser's message names the member, never its value), else null.
   */
  private static String duplicateMember(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof StreamReadException read && read.getOriginalMessage() != null
          && read.getOriginalMessage().startsWith("Duplicate field '")) {
        String message = read.getOriginalMessage();
        int start = "Duplicate field '".length();
        return message.substring(start, Math.max(start, message.lastIndexOf('\'')));
      }
    }
    return null;
  }

  /**
   * The coded error of a record's own check: core's records throw {@link IcegateException},
   * admin-model's (which cannot see core) {@link InvalidMemberException}, answered as core's
   * INVALID_ARGUMENT; null for any other cause.
   */
  private static IcegateException modelCheck(Throwable cause) {
    if (cause instanceof IcegateException coded) {
      return coded;
    }
    if (cause instanceof InvalidMemberException invalid) {
      return IcegateException.invalidArgument(invalid.getMessage());
    }
    return null;
  }

  private static String path(JsonMappingException e) {
    return e.getPath().stream()
        .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
        .collect(Collectors.joining("."));
  }
}
