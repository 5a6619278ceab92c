package io.icegate.gateway.iceberg;

import io.icegate.gateway.auth.Principal;
import java.util.Map;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTUtil;

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
    try {
      // a member given twice is refused, not silently the last one (what did the client mean?)
      T value = IcebergJson.mapper().readerFor(type)
          .with(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
          .readValue(body);
      if (value == null) {
        throw new BadRequestException("request body is required");
      }
      // iceberg-core's validate() would say "Invalid schema: null", an IllegalArgumentException
      if (value instanceof org.apache.iceberg.rest.requests.CreateTableRequest create
          && create.schema() == null) {
        throw new BadRequestException("schema is required to create a table");
      }
      if (value instanceof org.apache.iceberg.rest.RESTMessage message) {
        message.validate();
      }
      return value;
    } catch (com.fasterxml.jackson.core.JacksonException e) {
      throw new BadRequestException(e, "malformed request body: %s", e.getOriginalMessage());
    } catch (UnsupportedOperationException e) {
      // iceberg-core's parsers refuse an unknown update action or requirement type this way
      throw new BadRequestException(e, "malformed request body: %s", e.getMessage());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
