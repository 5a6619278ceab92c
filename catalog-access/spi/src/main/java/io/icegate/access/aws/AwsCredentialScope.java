package io.icegate.access.aws;

/**
 * The two places AWS credentials are used by a catalog client, kept apart so that the keys that
 * sign catalog requests never open storage and the reverse (seed 001 "Renewable AWS credentials").
 */
public enum AwsCredentialScope {
  /** SigV4 signing of catalog REST requests. */
  CATALOG("aws.catalog.registration"),
  /** Object-store (FileIO) access. */
  STORAGE("aws.storage.registration");

  private final String property;

  AwsCredentialScope(String property) {
    this.property = property;
  }

  /** The {@code ResolvedCatalogCredentials} property that carries a registration reference. */
  public String property() {
    return property;
  }
}
