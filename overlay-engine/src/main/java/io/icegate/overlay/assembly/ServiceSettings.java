package io.icegate.overlay.assembly;

import io.icegate.access.client.CatalogClientFactory;
import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.core.assembly.CoreSettings;
import io.icegate.core.credential.MasterKey;
import io.icegate.overlay.generated.CatalogFiles;
import io.icegate.overlay.reconcile.ReconcileSettings;
import java.util.Objects;

/**
 * What {@link Services} are configured with, as a value: the server builds it from its flags and
 * environment (read once, in {@code icegate serve}); test harnesses and benchmarks build their own.
 *
 * @param core the core services' settings (master key, idempotency, write-time checks)
 * @param providers the catalog-access providers upstream clients are opened with
 * @param outboundPolicy which upstream addresses clients and table validation may reach
 * @param reconcile reconciliation's settings (concurrency, batch, lease, {@code file:} reads); its
 *     batch is also the batch of contribution retirement
 * @param catalogFiles writes the files Delta capture generates under a target Catalog's warehouse
 */
public record ServiceSettings(CoreSettings core, CatalogClientFactory providers,
    OutboundAddressPolicy outboundPolicy, ReconcileSettings reconcile, CatalogFiles catalogFiles) {

  /** Settings whose Delta capture writes only to {@code file:} warehouses. */
  public ServiceSettings(CoreSettings core, CatalogClientFactory providers,
      OutboundAddressPolicy outboundPolicy, ReconcileSettings reconcile) {
    this(core, providers, outboundPolicy, reconcile, CatalogFiles.LOCAL);
  }

  /** These settings, writing generated files through {@code files}. */
  public ServiceSettings withCatalogFiles(CatalogFiles files) {
    return new ServiceSettings(core, providers, outboundPolicy, reconcile, files);
  }

  public ServiceSettings {
    Objects.requireNonNull(catalogFiles, "catalogFiles");
    Objects.requireNonNull(core, "core");
    Objects.requireNonNull(providers, "providers");
    Objects.requireNonNull(outboundPolicy, "outboundPolicy");
    Objects.requireNonNull(reconcile, "reconcile");
  }

  /**
   * Settings for embedded use on loopback (tests, benchmarks): {@link
   * CoreSettings#unchecked(MasterKey)}, the providers of the context class loader and the default
   * outbound address policy.
   */
  public static ServiceSettings embedded(MasterKey masterKey, ReconcileSettings reconcile) {
    return new ServiceSettings(CoreSettings.unchecked(masterKey), CatalogClientFactory.load(),
        OutboundAddressPolicy.defaults(), reconcile);
  }
}
