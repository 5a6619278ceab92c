package io.icegate.core.model;

import io.icegate.core.error.IcegateException;
import java.util.Map;

/**
 * A catalog of an account: the unit Iceberg clients select with {@code warehouse=<name>}; its id is
 * the Iceberg REST {@code prefix}. Names are unique per account.
 *
 * @param name display name
 * @param warehouse default location of new tables, e.g. {@code s3://bucket/prefix} or {@code
 *     file:/data/warehouse}; {@code null} when tables must name their location
 * @param properties opaque non-secret settings (Iceberg catalog properties); never {@code null}
 * @param storage object-storage settings of the catalog's FileIO, or {@code null}; holds a
 *     credential generation, never a secret (the secret is in the CredentialStore)
 */
public record Catalog(
    String name, String warehouse, Map<String, String> properties, CatalogStorage storage)
    implements ResourceSpec {

  public Catalog {
    Names.requireName(name, "catalog name");
    properties = Names.copyProperties(properties);
  }

  /** A catalog without storage settings. */
  public Catalog(String name, String warehouse, Map<String, String> properties) {
    this(name, warehouse, properties, null);
  }

  /** The credential generation of the storage secret, 0 when none is configured. */
  @com.fasterxml.jackson.annotation.JsonIgnore
  public long credentialGeneration() {
    return storage == null || storage.s3() == null ? 0 : storage.s3().credentialGeneration();
  }

  @Override
  public ResourceKind kind() {
    return ResourceKind.CATALOG;
  }

  @Override
  public NameScope nameScope() {
    return NameScope.ACCOUNT_WIDE;
  }

  @Override
  public String displayName() {
    return name;
  }

  @Override
  public Catalog withName(NameScope scope, String displayName) {
    if (!(scope instanceof NameScope.AccountWide)) {
      throw IcegateException.invalidArgument("a catalog name is account-wide");
    }
    return new Catalog(displayName, warehouse, properties, storage);
  }
}
