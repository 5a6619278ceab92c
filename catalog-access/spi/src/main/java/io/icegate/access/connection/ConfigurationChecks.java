package io.icegate.access.connection;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import java.util.Collection;

/** The persistable-configuration rules shared by the connection and authentication records. */
final class ConfigurationChecks {

  private ConfigurationChecks() {}

  /**
   * Refuses secret-bearing names and credential-provider handles; the message names the key so the
   * operator can find it, and never the value.
   */
  static void requireNoSecrets(String what, Collection<String> names) {
    for (String name : names) {
      if (name == null || name.isBlank()) {
        throw new CatalogAccessException(Code.INVALID_CONFIGURATION, what + " with an empty name");
      }
      if (SecretBearingNames.isCredentialProviderHandle(name)) {
        throw new CatalogAccessException(
            Code.INVALID_CONFIGURATION,
            what
                + " '"
                + name
                + "' names a credential provider; supply credentials through"
                + " ResolvedCatalogCredentials");
      }
      if (SecretBearingNames.isSecretBearing(name)) {
        throw new CatalogAccessException(
            Code.INVALID_CONFIGURATION,
            what
                + " '"
                + name
                + "' may carry a secret and cannot be persisted; supply it through"
                + " ResolvedCatalogCredentials");
      }
    }
  }
}
