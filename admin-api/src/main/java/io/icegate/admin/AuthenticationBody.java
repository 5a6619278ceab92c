package io.icegate.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.icegate.admin.model.IntegrationAuthentication;
import io.icegate.core.credential.SecretValues;
import java.util.HashMap;
import java.util.Map;

/**
 * An {@code authentication} body split into its stored configuration and its write-only members
 * (the CLI sends both in one object, admin-model's {@link IntegrationAuthentication} plus its
 * secrets). {@link SecretValues} redacts itself, so {@code toString} carries no secret.
 *
 * @param config the variant's non-secret configuration, as the Integration stores it
 * @param secrets the write-only members, or null when none were sent
 */
public record AuthenticationBody(IntegrationAuthentication config, SecretValues secrets) {

  /**
   * Splits an {@code authentication} object: the write-only members of its {@code type} become
   * {@link SecretValues}, the rest is read strictly as the variant's configuration.
   *
   * @throws io.icegate.core.error.IcegateException MALFORMED_REQUEST
   */
  public static AuthenticationBody split(JsonNode node) {
    if (node == null || !node.isObject()) {
      throw AdminJson.malformed("member authentication is missing or not an object");
    }
    ObjectNode config = ((ObjectNode) node).deepCopy();
    JsonNode type = config.get("type");
    if (type == null || !type.isTextual()) {
      throw AdminJson.malformed("member authentication.type is missing or not a string");
    }
    Map<String, String> secrets = new HashMap<>();
    for (String member : IntegrationAuthentication.secretMembers(type.asText())) {
      JsonNode value = config.remove(member);
      if (value == null || value.isNull()) {
        continue;
      }
      if (!value.isTextual() || value.asText().isEmpty()) {
        throw AdminJson.malformed("member authentication." + member
            + " must be a non-empty string");
      }
      secrets.put(member, value.asText());
    }
    IntegrationAuthentication parsed =
        AdminJson.convert(config, IntegrationAuthentication.class, "authentication");
    return new AuthenticationBody(parsed, secrets.isEmpty() ? null : new SecretValues(secrets));
  }
}
