package io.icegate.gateway.iceberg;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * The 400 BadRequestException for a request body that is not the JSON the spec defines, naming
 * the member at fault in the body's own terms ({@code properties.a: must be a string}) rather
 * than Jackson's Java types.
 */
final class MalformedBody {
  private static final String PREFIX = "malformed request body: ";

  private MalformedBody() {}

  /** A body Jackson could not parse or bind. */
  static BadRequestException of(JacksonException e) {
    String member = e instanceof JsonMappingException mapping ? path(mapping.getPath()) : "";
    String expected = e instanceof MismatchedInputException mismatch
        ? expected(mismatch.getTargetType())
        : null;
    String problem = expected != null ? "must be " + expected : e.getOriginalMessage();
    return new BadRequestException(e, "%s", PREFIX + (member.isEmpty() ? "" : member + ": ")
        + problem);
  }

  /**
   * A body iceberg-core's own parsers refused: an IllegalArgumentException whose message names
   * the member ("Cannot parse to a string value: name: 9"), a NullPointerException for a missing
   * required member, an UnsupportedOperationException for an unknown update action.
   */
  static BadRequestException of(RuntimeException e) {
    String message = e.getMessage() == null ? "a required member is missing" : e.getMessage();
    return new BadRequestException(e, "%s", PREFIX + message);
  }

  /** A problem found on the body's tree before binding ({@link NamespaceArrays}). */
  static BadRequestException of(String problem) {
    return new BadRequestException("%s", PREFIX + problem);
  }

  /** {@code table-changes[0].identifier.namespace}: JSON member names, as the client wrote them. */
  private static String path(List<JsonMappingException.Reference> references) {
    StringBuilder path = new StringBuilder();
    for (JsonMappingException.Reference reference : references) {
      if (reference.getFieldName() != null) {
        if (path.length() > 0) {
          path.append('.');
        }
        path.append(reference.getFieldName());
      } else if (reference.getIndex() >= 0) {
        path.append('[').append(reference.getIndex()).append(']');
      }
    }
    return path.toString();
  }

  /** The JSON type a Java target reads from, or null when no short name says it. */
  private static String expected(Class<?> target) {
    if (target == null) {
      return null;
    }
    if (target == String.class) {
      return "a string";
    }
    if (target == Boolean.class || target == boolean.class) {
      return "true or false";
    }
    if (target == Integer.class || target == int.class || target == Long.class
        || target == long.class) {
      return "an integer";
    }
    if (Number.class.isAssignableFrom(target) || target == double.class
        || target == float.class) {
      return "a number";
    }
    if (Map.class.isAssignableFrom(target)) {
      return "an object";
    }
    if (Collection.class.isAssignableFrom(target) || target.isArray()) {
      return "an array";
    }
    return null;
  }
}
