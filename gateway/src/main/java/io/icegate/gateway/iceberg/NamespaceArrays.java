package io.icegate.gateway.iceberg;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import java.io.IOException;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;

/**
 * Namespaces read only from JSON arrays of strings. iceberg-core reads a namespace with {@code
 * JsonUtil.getStringArray}, which takes any element as its text: {@code [1,2]} becomes the
 * namespace {@code 1.2} and {@code [null]} the namespace {@code "null"}, so a mistyped body
 * silently addressed another namespace (the tryout's 404 "Namespace does not exist: 1").
 */
final class NamespaceArrays {
  private static final String VIEW_VERSION = "view-version";
  private static final String DEFAULT_NAMESPACE = "default-namespace";

  private NamespaceArrays() {}

  /** Replaces iceberg-core's namespace deserializer in {@link IcebergJson}. */
  static final class Deserializer extends JsonDeserializer<Namespace> {
    @Override
    public Namespace deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      JsonNode node = ctxt.readTree(p);
      Optional<String> problem = problem(node);
      if (problem.isPresent()) {
        // Jackson prefixes the member's path ("namespace", "table-changes[0].identifier...")
        throw MismatchedInputException.from(p, Namespace.class, problem.get());
      }
      String[] levels = new String[node.size()];
      for (int i = 0; i < levels.length; i++) {
        levels[i] = node.get(i).textValue();
      }
      return Namespace.of(levels);
    }
  }

  /**
   * What is wrong with {@code node} as a namespace, or empty when it is an array of strings.
   * Values are quoted as JSON, never as Java text, so {@code "1"} and {@code 1} stay apart.
   */
  static Optional<String> problem(JsonNode node) {
    if (!node.isArray()) {
      return Optional.of("must be an array of strings, not " + node);
    }
    for (int i = 0; i < node.size(); i++) {
      if (!node.get(i).isTextual()) {
        return Optional.of("must be an array of strings; element " + i + " is " + node.get(i));
      }
    }
    return Optional.empty();
  }

  /**
   * The {@code default-namespace} of a view version, which iceberg-core's {@code
   * ViewVersionParser} reads on its own (inside the create-view and update parsers, out of reach
   * of {@link Deserializer}): checked on the body's tree before it is bound. Looks at {@code
   * view-version} of a create-view body and of every {@code add-view-version} update.
   *
   * @return the problem, naming the member's path, or empty
   */
  static Optional<String> viewVersionProblem(JsonNode body) {
    Optional<String> created = defaultNamespaceProblem(body.get(VIEW_VERSION), VIEW_VERSION);
    if (created.isPresent()) {
      return created;
    }
    JsonNode updates = body.get("updates");
    if (updates == null || !updates.isArray()) {
      return Optional.empty();
    }
    for (int i = 0; i < updates.size(); i++) {
      Optional<String> problem = defaultNamespaceProblem(
          updates.get(i).get(VIEW_VERSION), "updates[" + i + "]." + VIEW_VERSION);
      if (problem.isPresent()) {
        return problem;
      }
    }
    return Optional.empty();
  }

  private static Optional<String> defaultNamespaceProblem(JsonNode version, String path) {
    if (version == null || !version.isObject() || !version.has(DEFAULT_NAMESPACE)) {
      // a missing or misshapen view version is iceberg-core's parser's to refuse
      return Optional.empty();
    }
    return problem(version.get(DEFAULT_NAMESPACE))
        .map(problem -> path + "." + DEFAULT_NAMESPACE + ": " + problem);
  }
}
