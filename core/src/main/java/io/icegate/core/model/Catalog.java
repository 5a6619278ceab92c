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
 */
public record Catalog(String name, String warehouse, Map<String, String> properties)
    implements ResourceSpec {

  public Catalog {
    Names.requireName(name, "catalog name");
    properties = Names.copyProperties(properties);
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
    return new Catalog(displayName, warehouse, properties);
  }
}
