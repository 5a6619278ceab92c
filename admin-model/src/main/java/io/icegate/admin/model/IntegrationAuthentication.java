package io.icegate.admin.model;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.Set;

/**
 * The non-secret part of an integration's authentication (DESIGN.md "Authentication variants"):
 * the {@code authentication} member of the admin API, and as such stored in core's Integration
 * record (one type for the wire and the store, owned here, the lower module). The secret members
 * of each variant ({@link #requiredSecrets()}, {@link #optionalSecrets()}) are write-only: they go
 * to the CredentialStore and are never part of this record. JSON member {@code type} names the
 * variant. A missing required member is an {@link InvalidMemberException}.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
@JsonSubTypes({
  @JsonSubTypes.Type(value = IntegrationAuthentication.Bearer.class, name = "bearer"),
  @JsonSubTypes.Type(
      value = IntegrationAuthentication.OAuth2ClientCredentials.class,
      name = "oauth2-client-credentials"),
  @JsonSubTypes.Type(value = IntegrationAuthentication.AwsSigV4.class, name = "aws-sigv4"),
  @JsonSubTypes.Type(value = IntegrationAuthentication.AwsAccessKeys.class, name = "aws-access-keys"),
  @JsonSubTypes.Type(value = IntegrationAuthentication.AwsAssumeRole.class, name = "aws-assume-role")
})
public sealed interface IntegrationAuthentication {

  /**
   * The write-only members of the variant named {@code typeName} (empty for an unknown name):
   * the HTTP layer separates them from the stored configuration.
   */
  static Set<String> secretMembers(String typeName) {
    return switch (typeName) {
      case "bearer" -> Set.of("token");
      case "oauth2-client-credentials" -> Set.of("clientSecret");
      case "aws-sigv4", "aws-access-keys" -> Set.of("secretAccessKey", "sessionToken");
      default -> Set.of();
    };
  }

  /** The variant's JSON {@code type}. */
  @JsonIgnore
  String typeName();

  /** Secret members a create or rotation must supply. */
  @JsonIgnore
  default Set<String> requiredSecrets() {
    return Set.of();
  }

  /** Secret members a create or rotation may supply. */
  @JsonIgnore
  default Set<String> optionalSecrets() {
    return Set.of();
  }

  private static void requireText(String value, String member) {
    if (value == null || value.isBlank()) {
      throw new InvalidMemberException(member + " must not be empty");
    }
  }

  /** A static bearer token ({@code token}, write-only). */
  record Bearer() implements IntegrationAuthentication {
    @Override
    public String typeName() {
      return "bearer";
    }

    @Override
    public Set<String> requiredSecrets() {
      return Set.of("token");
    }
  }

  /**
   * OAuth2 client credentials ({@code clientSecret}, write-only).
   *
   * @param tokenUri token endpoint; optional for Unity (then {@code /oidc/v1/token} of the URI)
   * @param clientId client id
   * @param scope requested scope, optional
   */
  record OAuth2ClientCredentials(String tokenUri, String clientId, String scope)
      implements IntegrationAuthentication {
    public OAuth2ClientCredentials {
      requireText(clientId, "authentication.clientId");
    }

    @Override
    public String typeName() {
      return "oauth2-client-credentials";
    }

    @Override
    public Set<String> requiredSecrets() {
      return Set.of("clientSecret");
    }
  }

  /**
   * Requests signed with SigV4 from static keys ({@code secretAccessKey}, optional {@code
   * sessionToken}, write-only).
   */
  record AwsSigV4(String region, String signingName, String accessKeyId)
      implements IntegrationAuthentication {
    public AwsSigV4 {
      requireText(region, "authentication.region");
      requireText(signingName, "authentication.signingName");
      requireText(accessKeyId, "authentication.accessKeyId");
    }

    @Override
    public String typeName() {
      return "aws-sigv4";
    }

    @Override
    public Set<String> requiredSecrets() {
      return Set.of("secretAccessKey");
    }

    @Override
    public Set<String> optionalSecrets() {
      return Set.of("sessionToken");
    }
  }

  /** Static keys; region and signing name from the connection properties. */
  record AwsAccessKeys(String accessKeyId) implements IntegrationAuthentication {
    public AwsAccessKeys {
      requireText(accessKeyId, "authentication.accessKeyId");
    }

    @Override
    public String typeName() {
      return "aws-access-keys";
    }

    @Override
    public Set<String> requiredSecrets() {
      return Set.of("secretAccessKey");
    }

    @Override
    public Set<String> optionalSecrets() {
      return Set.of("sessionToken");
    }
  }

  /** Assume a role with the server's own base credentials; no secret members. */
  record AwsAssumeRole(String roleArn, String externalId, String sessionName, String region)
      implements IntegrationAuthentication {
    public AwsAssumeRole {
      requireText(roleArn, "authentication.roleArn");
      requireText(region, "authentication.region");
    }

    @Override
    public String typeName() {
      return "aws-assume-role";
    }
  }
}
