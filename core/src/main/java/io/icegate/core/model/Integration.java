package io.icegate.core.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.icegate.admin.model.IntegrationAuthentication;
import io.icegate.admin.model.IntegrationType;
import io.icegate.core.error.IcegateException;
import java.util.Map;
import java.util.Objects;

/**
 * A CatalogIntegration (seed 000): an upstream catalog's protocol, endpoint, non-secret connection
 * properties and authentication. Display names are unique per account; the id and {@code type}
 * never change. Updating {@code uri} or {@code properties}, or rotating credentials, is a
 * configuration change (advances the configuration generation); a rename is not.
 *
 * @param displayName display name
 * @param type upstream protocol
 * @param uri the catalog endpoint (http or https; checked by the connection boundary)
 * @param properties non-secret connection properties; never {@code null}
 * @param authentication the non-secret authentication configuration
 * @param credentialGeneration generation of the secrets in the CredentialStore under (integration
 *     id, generation); 0 when the authentication has no secret members
 * @param paused whether all new upstream work of the Integration is stopped (issue 28): no
 *     scheduled round starts and a manual reconcile is refused; a pause change is a configuration
 *     change, so it fences planned and running work
 */
public record Integration(
    String displayName,
    IntegrationType type,
    String uri,
    Map<String, String> properties,
    IntegrationAuthentication authentication,
    long credentialGeneration,
    // omitted while false: records of Integrations never paused keep their stored bytes
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean paused)
    implements ResourceSpec {

  public Integration {
    Names.requireName(displayName, "displayName");
    Objects.requireNonNull(type, "type");
    Names.requireText(uri, "uri");
    properties = Names.copyProperties(properties);
    Objects.requireNonNull(authentication, "authentication");
    if (credentialGeneration < 0) {
      throw new IllegalArgumentException("credentialGeneration must not be negative");
    }
  }

  /** An Integration that is not paused. */
  public Integration(String displayName, IntegrationType type, String uri,
      Map<String, String> properties, IntegrationAuthentication authentication,
      long credentialGeneration) {
    this(displayName, type, uri, properties, authentication, credentialGeneration, false);
  }

  /** This integration paused or resumed. */
  public Integration withPaused(boolean pause) {
    return new Integration(displayName, type, uri, properties, authentication,
        credentialGeneration, pause);
  }

  /** Whether secrets are stored for this integration. */
  @com.fasterxml.jackson.annotation.JsonIgnore
  public boolean credentialsConfigured() {
    return credentialGeneration > 0;
  }

  @Override
  public ResourceKind kind() {
    return ResourceKind.INTEGRATION;
  }

  @Override
  public NameScope nameScope() {
    return NameScope.ACCOUNT_WIDE;
  }

  @Override
  public Integration withName(NameScope scope, String name) {
    if (!(scope instanceof NameScope.AccountWide)) {
      throw IcegateException.invalidArgument("an integration name is account-wide");
    }
    return new Integration(name, type, uri, properties, authentication, credentialGeneration,
        paused);
  }

  /** This integration with other authentication at another credential generation. */
  public Integration withAuthentication(IntegrationAuthentication auth, long generation) {
    return new Integration(displayName, type, uri, properties, auth, generation, paused);
  }
}
