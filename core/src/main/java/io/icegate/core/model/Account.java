package io.icegate.core.model;

import io.icegate.core.error.IcegateException;

/**
 * An account: the tenant every other resource belongs to. Names are unique server-wide.
 *
 * @param name display name
 */
public record Account(String name) implements ResourceSpec {
  public Account {
    Names.requireName(name, "account name");
  }

  @Override
  public ResourceKind kind() {
    return ResourceKind.ACCOUNT;
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
  public Account withName(NameScope scope, String displayName) {
    if (!(scope instanceof NameScope.AccountWide)) {
      throw IcegateException.invalidArgument("an account name is server-wide");
    }
    return new Account(displayName);
  }
}
