package io.icegate.core.model;

import java.util.Objects;

/**
 * The identity of one resource: which account, which kind, which id. Keys deletion fences and
 * dependency counters. For an account, {@code accountId} equals {@code id}.
 */
public record ResourceRef(String accountId, ResourceKind kind, String id) {
  public ResourceRef {
    Objects.requireNonNull(accountId, "accountId");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(id, "id");
  }

  /** The reference of account {@code accountId}. */
  public static ResourceRef account(String accountId) {
    return new ResourceRef(accountId, ResourceKind.ACCOUNT, accountId);
  }

  @Override
  public String toString() {
    return kind.label() + " " + id;
  }
}
