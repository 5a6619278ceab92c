package io.icegate.gateway;

import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.overlay.reconcile.ReconcileSettings;
import java.nio.file.Path;
import java.time.Duration;
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
 * @param masterKey where the CredentialStore's key comes from; null means {@link
 *     MasterKeySource#NONE} (the data dir's key file)
 * @param reconcile reconciliation's settings before {@code allowLocalFiles} is applied (the
 *     concurrency of {@code ICEGATE_RECONCILE_CONCURRENCY}); null means {@link
 *     ReconcileSettings#DEFAULT}
 * @param maxTokenLifetime the longest lifetime of an issued token, or null for none
 * @param minRefreshInterval the shortest interval the scheduler runs an Integration's rounds at
 *     (issue 28; an Overlay may ask for less, down to PT5S, and gets this); null means PT5S
 */
public record GatewaySettings(
    Path dataDir,
    String store,
    String bind,
    int port,
    boolean allowLocalFiles,
    String bootstrapToken,
    OutboundAddressPolicy outboundPolicy,
    MasterKeySource masterKey,
    ReconcileSettings reconcile,
    Duration maxTokenLifetime,
    Duration minRefreshInterval) {

  public GatewaySettings {
    if (minRefreshInterval == null) {
      minRefreshInterval = io.icegate.core.model.CatalogOverlay.MIN_REFRESH_INTERVAL;
    }
    if (minRefreshInterval.compareTo(io.icegate.core.model.CatalogOverlay.MIN_REFRESH_INTERVAL)
        < 0) {
      // named as the flag that sets it, with the value given, like the flag's other refusals
      throw new IllegalArgumentException("--min-refresh-interval: must be at least "
          + io.icegate.admin.model.DurationText.canonical(
              io.icegate.core.model.CatalogOverlay.MIN_REFRESH_INTERVAL)
          + ", got " + io.icegate.admin.model.DurationText.canonical(minRefreshInterval));
    }
    if (minRefreshInterval.compareTo(Duration.ofDays(366)) > 0) {
      throw new IllegalArgumentException("--min-refresh-interval: must be at most P366D, got "
          + io.icegate.admin.model.DurationText.canonical(minRefreshInterval));
    }
    if (maxTokenLifetime != null && (maxTokenLifetime.isNegative() || maxTokenLifetime.isZero())) {
      throw new IllegalArgumentException("the maximum token lifetime must be positive");
    }
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
    if (masterKey == null) {
      masterKey = MasterKeySource.NONE;
    }
    if (reconcile == null) {
      reconcile = ReconcileSettings.DEFAULT;
    }
  }

  /** Settings with no configured master key and default reconciliation. */
  public GatewaySettings(Path dataDir, String store, String bind, int port,
      boolean allowLocalFiles, String bootstrapToken, OutboundAddressPolicy outboundPolicy) {
    this(dataDir, store, bind, port, allowLocalFiles, bootstrapToken, outboundPolicy, null, null,
        null, null);
  }

  /** Settings with the default outbound address policy. */
  public GatewaySettings(Path dataDir, String store, String bind, int port,
      boolean allowLocalFiles, String bootstrapToken) {
    this(dataDir, store, bind, port, allowLocalFiles, bootstrapToken, null, null, null, null,
        null);
  }

  /** These settings with issued tokens living at most {@code lifetime} (null: no maximum). */
  public GatewaySettings withMaxTokenLifetime(Duration lifetime) {
    return new GatewaySettings(dataDir, store, bind, port, allowLocalFiles, bootstrapToken,
        outboundPolicy, masterKey, reconcile, lifetime, minRefreshInterval);
  }

  /** These settings with the scheduler's shortest interval {@code floor}. */
  public GatewaySettings withMinRefreshInterval(Duration floor) {
    return new GatewaySettings(dataDir, store, bind, port, allowLocalFiles, bootstrapToken,
        outboundPolicy, masterKey, reconcile, maxTokenLifetime, floor);
  }

  /** Shows no token: settings are logged. */
  @Override
  public String toString() {
    return "GatewaySettings[dataDir=" + dataDir + ", store=" + store + ", bind=" + bind + ", port="
        + port + ", allowLocalFiles=" + allowLocalFiles + ", outboundPolicy=" + outboundPolicy
        + ", masterKey=" + masterKey + ", reconcile=" + reconcile + ", maxTokenLifetime="
        + maxTokenLifetime + ", minRefreshInterval=" + minRefreshInterval + "]";
  }
}
