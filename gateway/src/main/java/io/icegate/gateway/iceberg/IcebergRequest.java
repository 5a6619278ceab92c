package io.icegate.gateway.iceberg;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import io.icegate.gateway.auth.Principal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTMessage;
import org.apache.iceberg.rest.RESTUtil;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.CreateViewRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;

/**
 * One Iceberg REST request, free of servlet types.
 *
 * @param route the matched route
 * @param pathVariables raw (percent-encoded) path variables by template name
 * @param query decoded query parameters (first value of each)
 * @param body the request body, empty when none
 * @param ifNoneMatch the {@code If-None-Match} header or null
 * @param idempotencyKey the {@code Idempotency-Key} header or null
 * @param principal the authenticated caller, null only on public routes
 * @param accessDelegation the {@code X-Iceberg-Access-Delegation} header or null: a
 *     comma-separated list of modes ({@code vended-credentials}, {@code remote-signing})
 * @param acceptEncoding the {@code Accept-Encoding} header or null
 */
public record IcebergRequest(
    Route route,
    Map<String, String> pathVariables,
    Map<String, String> query,
    byte[] body,
    String ifNoneMatch,
    String idempotencyKey,
    Principal principal,
    String accessDelegation,
    String acceptEncoding) {

  /** The access-delegation mode icegate serves; {@code remote-signing} it does not. */
  public static final String VENDED_CREDENTIALS = "vended-credentials";

  /**
   * The bodies that may hold a view version, whose {@code default-namespace} iceberg-core reads
   * leniently ({@link NamespaceArrays#viewVersionProblem}); only these are read as a tree first.
   */
  private static final Set<Class<?>> CARRIES_VIEW_VERSIONS =
      Set.of(CreateViewRequest.class, UpdateTableRequest.class);

  /** Whether the client asked for vended credentials (the header lists the mode). */
  public boolean wantsVendedCredentials() {
    if (accessDelegation == null) {
      return false;
    }
    for (String mode : accessDelegation.split(",")) {
      if (mode.strip().equalsIgnoreCase(VENDED_CREDENTIALS)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the client can decode a gzip answer ({@link AcceptEncoding#admitsGzip}). */
  public boolean acceptsGzip() {
    return AcceptEncoding.admitsGzip(acceptEncoding);
  }

  /** The {@code {namespace}} variable, split on the {@code %1F} separator and decoded. */
  public Namespace namespace() {
    return RESTUtil.decodeNamespace(pathVariables.get("namespace"));
  }

  /** The table identifier of {@code {namespace}/tables/{table}}. */
  public TableIdentifier table() {
    return TableIdentifier.of(namespace(), RESTUtil.decodeString(pathVariables.get("table")));
  }

  /** The view identifier of {@code {namespace}/views/{view}}. */
  public TableIdentifier view() {
    return TableIdentifier.of(namespace(), RESTUtil.decodeString(pathVariables.get("view")));
  }

  /** The raw catalog prefix. */
  public String prefix() {
    String raw = pathVariables.get("prefix");
    return raw == null ? null : RESTUtil.decodeString(raw);
  }

  /** Parses the body as {@code type} with the Iceberg REST mapper. */
  public <T> T bodyAs(Class<T> type) {
    if (body.length == 0) {
      throw new BadRequestException("request body is required");
    }
    T value = parse(type);
    if (value == null) {
      throw new BadRequestException("request body is required");
    }
    // iceberg-core's validate() would say "Invalid schema: null", an IllegalArgumentException
    if (value instanceof CreateTableRequest create && create.schema() == null) {
      throw new BadRequestException("schema is required to create a table");
    }
    if (value instanceof RESTMessage message) {
      message.validate();
    }
    return value;
  }

  private <T> T parse(Class<T> type) {
    // a member given twice is refused, not silently the last one (what did the client mean?)
    ObjectReader reader = IcebergJson.mapper().readerFor(type)
        .with(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    try {
      if (!CARRIES_VIEW_VERSIONS.contains(type)) {
        return reader.readValue(body);
      }
      JsonNode tree = reader.readTree(body);
      Optional<String> problem = tree == null
          ? Optional.empty()
          : NamespaceArrays.viewVersionProblem(tree);
      if (problem.isPresent()) {
        throw MalformedBody.of(problem.get());
      }
      return reader.readValue(tree);
    } catch (JacksonException e) {
      throw MalformedBody.of(e);
    } catch (IllegalArgumentException | NullPointerException | UnsupportedOperationException e) {
      // iceberg-core's parsers of a top-level body (update-table, register-table, create-view...)
      // throw these directly, unwrapped by Jackson, when a member is missing or of the wrong type
      // or an update action is unknown: still the client's malformed body
      throw MalformedBody.of(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
