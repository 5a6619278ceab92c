package io.icegate.access.iceberg.http;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.rest.responses.ConfigResponse;
import org.apache.iceberg.rest.responses.LoadTableResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the keys that name a class to load from the configuration an upstream catalog sends:
 * the {@code /v1/config} defaults and overrides and a load-table response's {@code config}.
 *
 * <p>Why: iceberg-core merges that configuration into the session's own properties and then
 * instantiates the classes it names inside our server. An upstream's {@code io-impl} would replace
 * the provider's {@code CapturingFileIO}, so vended credentials would silently be lost and foreign
 * code would run here; {@code client.credentials-provider} could point SigV4 signing at another
 * Integration's registration. Supplying our own FileIO builder to {@code RESTSessionCatalog} is not
 * a way out: in iceberg-core 1.10.1 a supplied builder never receives {@code
 * storage-credentials}. So what the upstream sends is filtered before the session catalog sees it.
 *
 * <p>The keys (iceberg-core and iceberg-aws 1.10.1, every property read as a class name or a class
 * name alternative): any key ending in {@code -impl} or {@code .impl} ({@code io-impl}, {@code
 * metrics-reporter-impl}, {@code catalog-impl}, {@code lock-impl}, {@code encryption.kms-impl},
 * {@code s3.client-factory-impl}, {@code rest.client.tls.configurer-impl}, {@code
 * write.location-provider.impl}); {@code client.factory}; {@code client.credentials-provider} and
 * the {@code client.credentials-provider.*} settings handed to it; {@code rest.auth.type} and
 * {@code rest.sigv4.delegate-auth-type}, which {@code AuthManagers} accept as class names.
 *
 * <p>Every other key passes unchanged, and a response without such keys is returned as received.
 * One warning per key and client names what was ignored, never a value.
 */
public final class UpstreamConfigFilter {
  private static final Logger LOG = LoggerFactory.getLogger(UpstreamConfigFilter.class);

  /** Keys that name a class without an {@code -impl} suffix. */
  static final Set<String> CLASS_KEYS =
      Set.of(
          "client.factory",
          "client.credentials-provider",
          "rest.auth.type",
          "rest.sigv4.delegate-auth-type");

  private static final String CREDENTIALS_PROVIDER_SETTINGS = "client.credentials-provider.";

  private final String upstream;
  private final Set<String> reported = ConcurrentHashMap.newKeySet();

  /**
   * @param upstream how warnings name the catalog (its endpoint host), never a secret
   */
  public UpstreamConfigFilter(String upstream) {
    this.upstream = upstream;
  }

  /** Whether configuration key {@code key} names a class that iceberg-core would load. */
  public static boolean namesAClass(String key) {
    return key.endsWith("-impl")
        || key.endsWith(".impl")
        || CLASS_KEYS.contains(key)
        || key.startsWith(CREDENTIALS_PROVIDER_SETTINGS);
  }

  /**
   * {@code response} without class-naming keys in its upstream configuration; anything that is not
   * a {@link ConfigResponse} or {@link LoadTableResponse} (or has no such key) is returned as is.
   */
  public Object filter(Object response) {
    if (response instanceof ConfigResponse config) {
      return filter(config);
    }
    if (response instanceof LoadTableResponse table) {
      return filter(table);
    }
    return response;
  }

  private ConfigResponse filter(ConfigResponse config) {
    Set<String> ignored = new TreeSet<>(classKeys(config.defaults()));
    ignored.addAll(classKeys(config.overrides()));
    if (ignored.isEmpty()) {
      return config;
    }
    warn(ignored, "its /v1/config answer");
    return ConfigResponse.builder()
        .withDefaults(without(config.defaults(), ignored))
        .withOverrides(without(config.overrides(), ignored))
        .withEndpoints(config.endpoints())
        .build();
  }

  private LoadTableResponse filter(LoadTableResponse table) {
    Set<String> ignored = new TreeSet<>(classKeys(table.config()));
    if (ignored.isEmpty()) {
      return table;
    }
    warn(ignored, "a load-table answer");
    return LoadTableResponse.builder()
        .withTableMetadata(table.tableMetadata())
        .addAllConfig(without(table.config(), ignored))
        .addAllCredentials(table.credentials())
        .build();
  }

  private static List<String> classKeys(Map<String, String> config) {
    return config.keySet().stream().filter(UpstreamConfigFilter::namesAClass).toList();
  }

  private static Map<String, String> without(Map<String, String> config, Set<String> keys) {
    Map<String, String> kept = new HashMap<>(config);
    kept.keySet().removeAll(keys);
    return kept;
  }

  private void warn(Set<String> ignored, String where) {
    Set<String> fresh = new TreeSet<>(ignored);
    fresh.removeIf(key -> !reported.add(key));
    if (!fresh.isEmpty()) {
      LOG.warn(
          "upstream catalog {} sent configuration naming classes to load in {}; ignored keys: {}",
          upstream,
          where,
          fresh);
    }
  }
}
