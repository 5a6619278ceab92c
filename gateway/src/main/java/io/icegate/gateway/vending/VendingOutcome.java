package io.icegate.gateway.vending;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.apache.iceberg.rest.credentials.Credential;

/** What a {@link TableCredentialSource} answered: credentials, or why there are none. */
public sealed interface VendingOutcome {

  /**
   * Credentials to hand to the client.
   *
   * @param credentials one or more Iceberg REST storage credentials (prefix + FileIO properties);
   *     their config holds secrets, so never log or persist them
   * @param expiresAt when the credentials stop working, or {@code null} when they do not expire
   *     (static keys)
   */
  record Vended(List<Credential> credentials, Instant expiresAt) implements VendingOutcome {
    public Vended {
      credentials = List.copyOf(credentials);
      if (credentials.isEmpty()) {
        throw new IllegalArgumentException("a vended outcome needs at least one credential");
      }
    }

    @Override
    public String toString() {
      return "Vended[" + credentials.size() + " credential(s), expiresAt=" + expiresAt + "]";
    }
  }

  /**
   * Nothing to vend for this table.
   *
   * @param reason a user-facing sentence (no secrets), e.g. that the Catalog has no vending
   *     configuration
   */
  record NotVended(String reason) implements VendingOutcome {
    public NotVended {
      Objects.requireNonNull(reason, "reason");
    }
  }
}
