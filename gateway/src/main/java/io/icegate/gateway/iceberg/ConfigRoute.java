package io.icegate.gateway.iceberg;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.icegate.core.auth.ApiTokens;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.Resource;
import io.icegate.gateway.catalog.CatalogDirectory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.rest.Endpoint;
import org.apache.iceberg.rest.responses.ConfigResponse;
import org.apache.iceberg.rest.responses.OAuthTokenResponse;

/**
 * The two routes outside a catalog prefix: {@code GET /v1/config?warehouse=<catalog name>} and the
 * deprecated client-credentials token route kept for clients configured with {@code credential=}.
 */
public final class ConfigRoute {
  /** The catalog a client gets when it names no warehouse. */
  static final String DEFAULT_WAREHOUSE = "default";
  private static final String ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";

  private final CatalogDirectory directory;
  private final ApiTokens tokens;
  private final Duration idempotencyKeyLifetime;

  public ConfigRoute(CatalogDirectory directory, ApiTokens tokens, Duration idempotencyKeyLifetime) {
    this.directory = directory;
    this.tokens = tokens;
    this.idempotencyKeyLifetime = idempotencyKeyLifetime;
  }

  /**
   * The config of the caller's Catalog named by {@code warehouse}: {@code prefix} (its immutable
   * id) as an override, every served endpoint, and {@code idempotency-key-lifetime} (a member of
   * the REST spec newer than iceberg-core 1.10.1's {@link ConfigResponse}, added to its JSON).
   */
  IcebergReply config(IcebergRequest request) {
    String warehouse = request.query().getOrDefault("warehouse", DEFAULT_WAREHOUSE);
    if (warehouse.isEmpty()) {
      warehouse = DEFAULT_WAREHOUSE;
    }
    String name = warehouse;
    Resource<Catalog> catalog = directory.byName(request.principal(), name)
        .orElseThrow(() -> new NotFoundException("Warehouse (catalog) does not exist: %s", name));
    List<Endpoint> endpoints = new ArrayList<>();
    for (Route route : Route.values()) {
      if (route.endpoint() != null) {
        endpoints.add(route.endpoint());
      }
    }
    ConfigResponse response = ConfigResponse.builder()
        .withDefaults(new LinkedHashMap<>(catalog.spec().properties()))
        .withOverride("prefix", catalog.id())
        .withEndpoints(endpoints)
        .build();
    ObjectNode json = IcebergJson.mapper().valueToTree(response);
    json.put("idempotency-key-lifetime", idempotencyKeyLifetime.toString());
    return IcebergReply.ok(json);
  }

  /**
   * {@code POST /v1/oauth/tokens}: the client-credentials grant, where the client secret is an
   * icegate token (the client id is a free label), and the token-exchange grant the iceberg-core
   * client uses to refresh. The access token returned is the presented token itself: icegate
   * tokens do not expire, so there is nothing to mint. Errors use the OAuth 2 error format (RFC
   * 6749 section 5.2), which iceberg-core's client parses on this route.
   */
  IcebergReply token(IcebergRequest request) {
    Map<String, String> form = request.query();
    String grant = form.getOrDefault("grant_type", "");
    String presented = switch (grant) {
      case "client_credentials" -> form.get("client_secret");
      case "urn:ietf:params:oauth:grant-type:token-exchange" -> form.get("subject_token");
      default -> null;
    };
    if (presented == null && !grant.equals("client_credentials")
        && !grant.startsWith("urn:ietf:params:oauth:grant-type:token-exchange")) {
      return oauthError(400, "unsupported_grant_type", "grant_type must be client_credentials");
    }
    if (presented == null || presented.isEmpty() || tokens.resolve(presented).isEmpty()) {
      return oauthError(401, "invalid_client", "the client credentials are not valid");
    }
    return IcebergReply.ok(OAuthTokenResponse.builder()
        .withToken(presented)
        .withTokenType("bearer")
        .withIssuedTokenType(ACCESS_TOKEN_TYPE)
        .build());
  }

  static IcebergReply oauthError(int status, String error, String description) {
    Map<String, String> body = new LinkedHashMap<>();
    body.put("error", error);
    body.put("error_description", description);
    return new IcebergReply(status, body, Map.of());
  }
}
