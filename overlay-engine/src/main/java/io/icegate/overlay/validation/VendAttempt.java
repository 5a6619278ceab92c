package io.icegate.overlay.validation;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.model.CatalogObjectRef;
import io.icegate.access.storage.VendedStorageCredentials;
import java.util.Set;

/** What asking the upstream to vend for one table gave. */
sealed interface VendAttempt {

  /**
   * Failure codes that say "this table gets no credentials" rather than "vending is broken": the
   * table vanished since it was listed, it is of a kind the provider cannot vend for (a Delta
   * Sharing url-only table, non-S3 storage), or the caller may not read it. Another table may vend.
   */
  Set<Code> TABLE_SPECIFIC = Set.of(Code.NOT_FOUND, Code.UNSUPPORTED, Code.PERMISSION_DENIED);

  /** The catalog vended these credentials. */
  record Vended(VendedStorageCredentials credentials) implements VendAttempt {}

  /** The catalog answered without credentials (Unity does so for a {@code file:} table). */
  record NotVended() implements VendAttempt {}

  /** The catalog's answer failed; {@code failure} says how. */
  record Failed(CatalogAccessException failure) implements VendAttempt {}

  /** The provider does not offer vending, so nothing was asked. */
  record Unsupported() implements VendAttempt {}

  /** One fresh vending request for {@code table}. */
  static VendAttempt of(CatalogClient client, CatalogObjectRef table) {
    try {
      return client
          .vendStorageCredentials(table.namespace(), table.name())
          .<VendAttempt>map(Vended::new)
          .orElseGet(NotVended::new);
    } catch (CatalogAccessException e) {
      return new Failed(e);
    }
  }

  /**
   * Why another table should be tried instead of this one, as a failure code ({@link
   * CheckResult#NOT_VENDED} or a catalog-access code), or {@code null} when this answer is the one
   * to report.
   */
  default String skipCode() {
    if (this instanceof NotVended) {
      return CheckResult.NOT_VENDED;
    }
    if (this instanceof Failed failed && TABLE_SPECIFIC.contains(failed.failure().code())) {
      return failed.failure().code().name();
    }
    return null;
  }
}
