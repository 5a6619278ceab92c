package io.icegate.admin.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/**
 * Request bodies of the admin API (docs/admin-api.md), shared by the server (admin-api reads them)
 * and the CLI (which writes them). Presence of members, types, unknown members and enum values are
 * checked by the server when it reads a body. Records holding a write-only member redact it in
 * {@code toString}.
 */
public final class AdminRequests {
  private AdminRequests() {}

  /** {@code POST /accounts}. */
  public record CreateAccount(String name) {}

  /**
   * {@code POST /accounts/{account}/tokens}; role is {@code admin}, {@code writer} or {@code
   * reader}. {@code expiresAt} (ISO-8601 instant) is optional; {@code serverAdmin} (server admins
   * only) issues a token that acts in every account.
   */
  public record IssueToken(String name, String role, String expiresAt, Boolean serverAdmin) {
    public IssueToken(String name, String role) {
      this(name, role, null, null);
    }
  }

  /**
   * Refuses a property without a name ({@code --property '=v'} made one): no catalog or upstream
   * reads a blank key, so it can only be a mistake. Keys are checked, never values quoted.
   */
  static void requireNamedKeys(Map<String, String> properties) {
    if (properties != null
        && properties.keySet().stream().anyMatch(k -> k != null && k.isBlank())) {
      throw new InvalidMemberException("properties: a property key must not be empty or blank");
    }
  }

  /** {@code POST /catalogs}. */
  public record CreateCatalog(String name, String warehouse, Map<String, String> properties,
      Storage storage) {
    public CreateCatalog {
      requireNamedKeys(properties);
    }
  }

  /** {@code PATCH /catalogs/{id}}: absent members keep their value. */
  public record PatchCatalog(String name, Map<String, String> properties, Storage storage) {
    public PatchCatalog {
      requireNamedKeys(properties);
    }
  }

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

  /**
   * {@code POST /integrations}; {@code authentication} is an {@link IntegrationAuthentication}
   * with its write-only members, which the server splits off before reading the rest.
   */
  public record CreateIntegration(String displayName, IntegrationType type, String uri,
      Map<String, String> properties, ObjectNode authentication) {
    public CreateIntegration {
      requireNamedKeys(properties);
    }

    @Override
    public String toString() {
      return "CreateIntegration[" + displayName + ", " + type + ", " + uri + ", authentication "
          + "redacted]";
    }
  }

  /**
   * {@code PATCH /integrations/{id}}: absent members keep their value; {@code paused} stops all
   * new upstream work of the Integration.
   */
  public record PatchIntegration(String displayName, IntegrationType type, String uri,
      Map<String, String> properties, @JsonInclude(JsonInclude.Include.NON_NULL) Boolean paused) {
    public PatchIntegration {
      requireNamedKeys(properties);
    }

    public PatchIntegration(String displayName, IntegrationType type, String uri,
        Map<String, String> properties) {
      this(displayName, type, uri, properties, null);
    }
  }

  /**
   * {@code POST /overlays}: paths are lists of segments; {@code refreshInterval} and {@code
   * retention} are ISO-8601 durations (absent: manual refresh only, the current capture only).
   * The new members are left out of the JSON when null, so older servers read what older clients
   * sent.
   */
  public record CreateOverlay(String displayName, String integrationId, String catalogId,
      List<List<String>> includeNamespaces, List<List<String>> excludeNamespaces,
      @JsonInclude(JsonInclude.Include.NON_NULL) String refreshInterval,
      @JsonInclude(JsonInclude.Include.NON_NULL) String retention,
      @JsonInclude(JsonInclude.Include.NON_NULL) Boolean paused) {
    public CreateOverlay(String displayName, String integrationId, String catalogId,
        List<List<String>> includeNamespaces, List<List<String>> excludeNamespaces) {
      this(displayName, integrationId, catalogId, includeNamespaces, excludeNamespaces, null,
          null, null);
    }
  }

  /**
   * {@code PATCH /overlays/{id}}: absent members keep their value; the bindings are immutable;
   * {@code refreshInterval} or {@code retention} given as JSON null removes it.
   */
  public record PatchOverlay(String displayName, String integrationId, String catalogId,
      List<List<String>> includeNamespaces, List<List<String>> excludeNamespaces,
      @JsonInclude(JsonInclude.Include.NON_NULL) String refreshInterval,
      @JsonInclude(JsonInclude.Include.NON_NULL) String retention,
      @JsonInclude(JsonInclude.Include.NON_NULL) Boolean paused) {
    public PatchOverlay(String displayName, String integrationId, String catalogId,
        List<List<String>> includeNamespaces, List<List<String>> excludeNamespaces) {
      this(displayName, integrationId, catalogId, includeNamespaces, excludeNamespaces, null,
          null, null);
    }
  }

  /** Optional body of {@code PUT .../tables/{id}/visibility-override}. */
  public record SetVisibilityOverride(String note) {}

  /** {@code POST /integrations/{id}/validate}: optional; {@code table} names the table to probe. */
  public record ValidateIntegration(UpstreamTable table) {}

  /** An upstream table: its namespace path as a list of segments and its name. */
  public record UpstreamTable(List<String> namespace, String name) {}
}
