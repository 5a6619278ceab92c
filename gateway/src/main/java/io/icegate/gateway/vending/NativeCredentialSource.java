package io.icegate.gateway.vending;

import io.icegate.core.model.Catalog;
import io.icegate.core.model.CatalogStorage;
import io.icegate.core.model.Resource;
import io.icegate.gateway.fileio.CatalogFileIO;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.credentials.ImmutableCredential;

/**
 * Credentials for native (local) tables from their Catalog's {@code storage.s3} settings:
 * <ul>
 *   <li>{@code vendStaticKeys}: the Catalog's access key id and stored secret, as they are (local
 *       and test use; they neither expire nor narrow to the table);
 *   <li>{@code roleArn}: STS AssumeRole with a session policy scoped to the table's location
 *       ({@link AssumeRoleVending}).
 * </ul>
 * Anything else (no storage settings, neither mode, a location that is not {@code s3://}, a
 * missing secret) vends nothing: the server's own credentials are never handed out.
 *
 * <p>Each credential's prefix is the table location, and its config carries the Catalog's
 * endpoint, region and path-style setting, so a client needs no S3 settings of its own.
 */
public final class NativeCredentialSource implements TableCredentialSource {
  private final CatalogFileIO.StorageSecrets secrets;
  private final AssumeRoleVending assumeRole;

  /**
   * @param secrets the Catalogs' stored secret access keys
   * @param assumeRole STS vending (its StsClients sign with the same secrets)
   */
  public NativeCredentialSource(CatalogFileIO.StorageSecrets secrets,
      AssumeRoleVending assumeRole) {
    this.secrets = secrets;
    this.assumeRole = assumeRole;
  }

  @Override
  public VendingOutcome credentials(CredentialRequest request) {
    Resource<Catalog> catalog = request.catalog();
    CatalogStorage storage = catalog.spec().storage();
    CatalogStorage.S3 s3 = storage == null ? null : storage.s3();
    if (s3 == null || (!s3.vendStaticKeys() && s3.assumeRole() == null)) {
      return new VendingOutcome.NotVended("Catalog " + catalog.spec().name()
          + " does not vend storage credentials: it has no storage.s3.roleArn and no "
          + "storage.s3.vendStaticKeys");
    }
    Optional<S3Location> location = S3Location.parse(request.location());
    if (location.isEmpty()) {
      return new VendingOutcome.NotVended("table " + request.identifier()
          + " is not stored in S3: no storage credentials to vend for its location");
    }
    if (s3.assumeRole() != null) {
      return assumeRole.vend(catalog, s3, request.location(), location.get(), request.access());
    }
    Optional<String> secret = s3.credentialGeneration() == 0
        ? Optional.empty()
        : secrets.secretAccessKey(catalog.id(), s3.credentialGeneration());
    if (secret.isEmpty()) {
      return new VendingOutcome.NotVended("Catalog " + catalog.spec().name()
          + " has no stored secret access key to vend");
    }
    Map<String, String> config = clientConfig(s3);
    config.put("s3.access-key-id", s3.accessKeyId());
    config.put("s3.secret-access-key", secret.get());
    return new VendingOutcome.Vended(
        java.util.List.of(credential(request.location(), config)), null);
  }

  /** The non-secret client settings of {@code s3}: endpoint, region, path-style access. */
  static Map<String, String> clientConfig(CatalogStorage.S3 s3) {
    Map<String, String> config = new HashMap<>();
    if (s3.endpoint() != null) {
      config.put("s3.endpoint", s3.endpoint());
    }
    if (s3.region() != null) {
      config.put("client.region", s3.region());
    }
    config.put("s3.path-style-access", Boolean.toString(s3.pathStyleAccess()));
    return config;
  }

  static Credential credential(String prefix, Map<String, String> config) {
    return ImmutableCredential.builder().prefix(prefix).config(config).build();
  }
}
