package io.icegate.gateway;

import io.icegate.access.network.OutboundAddressPolicy;
import java.nio.file.Path;
import java.util.Objects;

/**
 * What {@code icegate serve} was configured with (DESIGN.md "Running it").
 *
 * @param dataDir directory of the SQLite file, the credential key file and the default warehouse
 * @param store {@code sqlite:PATH} or {@code fdb:CLUSTER_FILE}; null means {@code
 *     sqlite:DATA_DIR/icegate.db}
 * @param bind listen address
 * @param port TCP port, 0 for a free one
 * @param allowLocalFiles whether capture and validation may read {@code file:} locations
 * @param bootstrapToken the admin token to create on first start, or null to generate one
 * @param outboundPolicy which upstream addresses Integrations may point at; null means {@link
 *     OutboundAddressPolicy#defaults()}
 */
public record GatewaySettings(
    Path dataDir,
    String store,
    String bind,
    int port,
    boolean allowLocalFiles,
    String bootstrapToken,
    OutboundAddressPolicy outboundPolicy) {

  public GatewaySettings {
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(bind, "bind");
    if (store != null && store.isBlank()) {
      store = null;
    }
    if (bootstrapToken != null && bootstrapToken.isBlank()) {
      bootstrapToken = null;
    }
    if (outboundPolicy == null) {
      outboundPolicy = OutboundAddressPolicy.defaults();
    }
  }

  /** Settings with the default outbound address policy. */
  public GatewaySettings(Path dataDir, String store, String bind, int port,
      boolean allowLocalFiles, String bootstrapToken) {
    this(dataDir, store, bind, port, allowLocalFiles, bootstrapToken, null);
  }

  /** Shows no token: settings are logged. */
  @Override
  public String toString() {
    return "GatewaySettings[dataDir=" + dataDir + ", store=" + store + ", bind=" + bind + ", port="
        + port + ", allowLocalFiles=" + allowLocalFiles + ", outboundPolicy=" + outboundPolicy
        + "]";
  }
}
