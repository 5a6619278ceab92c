package io.icegate.core.model;

/**
 * Object-storage settings of a catalog (DESIGN.md "HTTP surfaces", catalogs): what the gateway's
 * FileIO for the catalog is built from. Only non-secret members are stored; the secret access key
 * lives in the CredentialStore under (catalog id, {@link S3#credentialGeneration()}).
 *
 * @param s3 S3 settings, or {@code null}
 */
public record CatalogStorage(S3 s3) {

  /**
   * S3 (or S3-compatible) storage.
   *
   * @param endpoint endpoint URI, or {@code null} for AWS's default
   * @param region region, or {@code null}
   * @param pathStyleAccess whether to address buckets by path rather than by host
   * @param accessKeyId the access key id (not secret), or {@code null} for the server's own
   *     credentials
   * @param credentialGeneration generation of the secret access key in the CredentialStore; 0 when
   *     no secret is configured
   */
  public record S3(
      String endpoint,
      String region,
      boolean pathStyleAccess,
      String accessKeyId,
      long credentialGeneration) {
    public S3 {
      if (credentialGeneration < 0) {
        throw new IllegalArgumentException("credentialGeneration must not be negative");
      }
    }
  }
}
