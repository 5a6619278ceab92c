package io.icegate.core.repo;

import io.icegate.core.error.IcegateException;
import io.icegate.core.model.NameScope;
import java.util.Objects;

/**
 * What a listing selects: resources of the repository's kind in one name scope, optionally only
 * names starting with a prefix. Page tokens are bound to the listing (kind, account, scope, prefix):
 * a token issued for one listing is rejected by every other ({@code INVALID_PAGE_TOKEN}).
 *
 * @param scope the name scope listed, e.g. the parent path of namespaces or the namespace of tables
 * @param namePrefix only names starting with this (case-sensitive); empty for all
 */
public record Listing(NameScope scope, String namePrefix) {
  public Listing {
    Objects.requireNonNull(scope, "scope");
    namePrefix = namePrefix == null ? "" : namePrefix;
    if (namePrefix.chars().anyMatch(Character::isISOControl)) {
      throw IcegateException.invalidArgument("name prefix must not contain control characters");
    }
  }

  /** Every resource in {@code scope}. */
  public static Listing of(NameScope scope) {
    return new Listing(scope, "");
  }

  /** This listing narrowed to names starting with {@code prefix}. */
  public Listing withNamePrefix(String prefix) {
    return new Listing(scope, prefix);
  }
}
