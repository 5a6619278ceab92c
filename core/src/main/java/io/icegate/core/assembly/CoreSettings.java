package io.icegate.core.assembly;

import io.icegate.core.credential.MasterKey;
import io.icegate.core.durability.IdempotencySettings;
import io.icegate.core.integration.ConnectionSettingsCheck;
import io.icegate.core.integration.UpstreamAddressCheck;
import java.util.Objects;

/**
 * What {@link CoreServices} are configured with, as a value: read once at the edge (the server's
 * command line and environment, a test, a benchmark), never from the environment inside.
 *
 * @param masterKey the CredentialStore's key
 * @param idempotency lease and lifetime of idempotency receipts
 * @param addresses the write-time check of an Integration's host
 * @param connectionSettings the write-time check of an Integration's properties
 */
public record CoreSettings(MasterKey masterKey, IdempotencySettings idempotency,
    UpstreamAddressCheck addresses, ConnectionSettingsCheck connectionSettings) {

  public CoreSettings {
    Objects.requireNonNull(masterKey, "masterKey");
    Objects.requireNonNull(idempotency, "idempotency");
    Objects.requireNonNull(addresses, "addresses");
    Objects.requireNonNull(connectionSettings, "connectionSettings");
  }

  /**
   * Default idempotency and no write-time checks of an Integration's host or properties: for
   * embedded use on loopback (tests, benchmarks), where upstream fixtures are local and the checks
   * are not what is exercised.
   */
  public static CoreSettings unchecked(MasterKey masterKey) {
    return new CoreSettings(masterKey, IdempotencySettings.DEFAULT, host -> { },
        ConnectionSettingsCheck.NONE);
  }

  /** These settings with other idempotency settings. */
  public CoreSettings withIdempotency(IdempotencySettings other) {
    return new CoreSettings(masterKey, other, addresses, connectionSettings);
  }
}
