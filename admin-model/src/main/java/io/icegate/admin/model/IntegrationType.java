package io.icegate.admin.model;

/**
 * The upstream protocol of a CatalogIntegration (seed 000, "Catalog integration"). Immutable
 * through update: changing it needs a replacing create.
 */
public enum IntegrationType {
  ICEBERG_REST,
  UNITY,
  DELTA_SHARING;

  /**
   * Whether integrations of this type may authenticate with {@code authentication}: Unity accepts
   * OAuth client credentials or bearer only; Delta Sharing bearer only (its protocol defines no
   * other scheme); Iceberg REST every variant.
   */
  public boolean accepts(IntegrationAuthentication authentication) {
    return switch (this) {
      case ICEBERG_REST -> true;
      case UNITY -> authentication instanceof IntegrationAuthentication.Bearer
          || authentication instanceof IntegrationAuthentication.OAuth2ClientCredentials;
      case DELTA_SHARING -> authentication instanceof IntegrationAuthentication.Bearer;
    };
  }
}
