package io.icegate.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.icegate.core.credential.SecretValues;
import io.icegate.core.model.IntegrationAuthentication;
import io.icegate.core.model.IntegrationType;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Request bodies of the admin API (DESIGN.md "HTTP surfaces"). Members are checked for presence by
 * {@link #require}; types, unknown members and enum values by {@link AdminJson}. Records holding a
 * write-only member redact it in {@code toString}.
 */
public final class AdminRequests {
  private AdminRequests() {}

  /** {@code POST /accounts}. */
  public record CreateAccount(String name) {}

  /** {@code POST /accounts/{account}/tokens}; role is {@code admin}, {@code writer} or {@code reader}. */
  public record IssueToken(String name, String role) {}

  /** {@code POST /catalogs}. */
  public record CreateCatalog(String name, String warehouse, Map<String, String> properties,
      Storage storage) {}

  /** {@code PATCH /catalogs/{id}}: absent members keep their value. */
  public record PatchCatalog(String name, Map<String, String> properties, Storage storage) {}

  /** Catalog storage. */
  public record Storage(S3 s3) {}

  /**
   * S3 storage; {@code secretAccessKey} is write-only. Credential vending: {@code vendStaticKeys},
   * or STS AssumeRole with {@code roleArn} and its optional {@code stsEndpoint}, {@code
   * durationSeconds} (default 3600) and {@code externalId}.
   */
  public record S3(String endpoint, String region, Boolean pathStyleAccess, String accessKeyId,
      String secretAccessKey, Boolean vendStaticKeys, String roleArn, String stsEndpoint,
      Integer durationSeconds, String externalId) {
    /** S3 storage without credential vending. */
    public S3(String endpoint, String region, Boolean pathStyleAccess, String accessKeyId,
        String secretAccessKey) {
      this(endpoint, region, pathStyleAccess, accessKeyId, secretAccessKey, null, null, null,
          null, null);
    }

    @Override
    public String toString() {
      return "S3[endpoint=" + endpoint + ", region=" + region + ", accessKeyId=" + accessKeyId
          + ", secretAccessKey=" + (secretAccessKey == null ? "absent" : "redacted")
          + ", vendStaticKeys=" + vendStaticKeys + ", roleArn=" + roleArn + ", stsEndpoint="
          + stsEndpoint + ", durationSeconds=" + durationSeconds + ", externalId=" + externalId
          + "]";
    }
  }

  /** {@code POST /integrations}; {@code authentication} is split by {@link #authentication}. */
  public record CreateIntegration(String displayName, IntegrationType type, String uri,
      Map<String, String> properties, ObjectNode authentication) {
    @Override
    public String toString() {
      return "CreateIntegration[" + displayName + ", " + type + ", " + uri + ", authentication "
          + "redacted]";
    }
  }

  /** {@code PATCH /integrations/{id}}: absent members keep their value. */
  public record PatchIntegration(String displayName, IntegrationType type, String uri,
      Map<String, String> properties) {}

  /** {@code POST /overlays}: paths are lists of segments. */
  public record CreateOverlay(String displayName, String integrationId, String catalogId,
      List<List<String>> includeNamespaces, List<List<String>> excludeNamespaces) {}

  /** {@code PATCH /overlays/{id}}: absent members keep their value; the bindings are immutable. */
  public record PatchOverlay(String displayName, String integrationId, String catalogId,
      List<List<String>> includeNamespaces, List<List<String>> excludeNamespaces) {}

  /** {@code POST /integrations/{id}/validate}: optional; {@code table} names the table to probe. */
  public record ValidateIntegration(UpstreamTable table) {}

  /** An upstream table: its namespace path as a list of segments and its name. */
  public record UpstreamTable(List<String> namespace, String name) {}

  /** An authentication body split into its stored configuration and its write-only members. */
  public record Authentication(IntegrationAuthentication config, SecretValues secrets) {}

  /**
   * Splits an {@code authentication} object: the write-only members of its {@code type} become
   * {@link SecretValues}, the rest is read strictly as the variant's configuration.
   *
   * @throws io.icegate.core.error.IcegateException MALFORMED_REQUEST
   */
  public static Authentication authentication(JsonNode node) {
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
    return new Authentication(parsed, secrets.isEmpty() ? null : new SecretValues(secrets));
  }

  /**
   * Fails unless {@code value} is present.
   *
   * @throws io.icegate.core.error.IcegateException MALFORMED_REQUEST naming {@code member}
   */
  public static <T> T require(T value, String member) {
    if (value == null) {
      throw AdminJson.malformed("member " + member + " is required");
    }
    return value;
  }
}
