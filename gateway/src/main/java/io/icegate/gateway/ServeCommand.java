package io.icegate.gateway;

import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.core.credential.MasterKey;
import io.icegate.overlay.reconcile.ReconcileSettings;
import io.icegate.admin.model.DurationText;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import io.icegate.gateway.server.DataDirLock;
import io.icegate.gateway.server.ListeningPort;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code icegate serve}: runs the gateway until interrupted. Every flag has an environment variable
 * (DESIGN.md "Running it"); a flag given on the command line wins over its variable.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = "Run the gateway (Iceberg REST under /iceberg, /healthz, /readyz, /metrics).")
public final class ServeCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--port", defaultValue = "${env:ICEGATE_PORT:-8181}",
      description = "TCP port; 0 picks a free one (env ICEGATE_PORT, default ${DEFAULT-VALUE}).")
  int port;

  @Option(names = "--data-dir", defaultValue = "${env:ICEGATE_DATA_DIR:-./data}",
      description = "SQLite file, key file, default warehouse (env ICEGATE_DATA_DIR, "
          + "default ${DEFAULT-VALUE}).")
  Path dataDir;

  @Option(names = "--store", defaultValue = "${env:ICEGATE_STORE}",
      description = "sqlite:PATH (default: sqlite:DATA_DIR/icegate.db) or fdb:CLUSTER_FILE "
          + "(env ICEGATE_STORE).")
  String store;

  @Option(names = "--bind", defaultValue = "${env:ICEGATE_BIND:-127.0.0.1}",
      description = "Address to listen on (env ICEGATE_BIND, default ${DEFAULT-VALUE}).")
  String bind;

  @Option(names = "--allow-local-files", defaultValue = "${env:ICEGATE_ALLOW_LOCAL_FILES:-false}",
      fallbackValue = "true", arity = "0..1",
      description = "Let capture and validation read file: locations; local demos and tests "
          + "only (env ICEGATE_ALLOW_LOCAL_FILES).")
  boolean allowLocalFiles;

  @Option(names = "--deny-loopback-addresses",
      defaultValue = "${env:ICEGATE_DENY_LOOPBACK_ADDRESSES:-false}", fallbackValue = "true",
      arity = "0..1",
      description = "Refuse Integrations whose host resolves to 127.0.0.0/8 or ::1 "
          + "(env ICEGATE_DENY_LOOPBACK_ADDRESSES).")
  boolean denyLoopbackAddresses;

  @Option(names = "--deny-private-addresses",
      defaultValue = "${env:ICEGATE_DENY_PRIVATE_ADDRESSES:-false}", fallbackValue = "true",
      arity = "0..1",
      description = "Refuse Integrations whose host resolves to 10/8, 172.16/12, 192.168/16, "
          + "100.64/10 or fc00::/7 (env ICEGATE_DENY_PRIVATE_ADDRESSES).")
  boolean denyPrivateAddresses;

  @Option(names = "--allow-metadata-addresses",
      defaultValue = "${env:ICEGATE_ALLOW_METADATA_ADDRESSES:-false}", fallbackValue = "true",
      arity = "0..1",
      description = "Allow link-local, unspecified and cloud-metadata addresses, refused by "
          + "default (env ICEGATE_ALLOW_METADATA_ADDRESSES).")
  boolean allowMetadataAddresses;

  @Option(names = "--max-token-lifetime", defaultValue = "${env:ICEGATE_MAX_TOKEN_LIFETIME}",
      description = "Longest lifetime of an issued token (e.g. 90d, 12h, P1W, PT12H): tokens "
          + "issued without expiresAt expire after it, a later expiresAt is refused. Default: no "
          + "maximum (env ICEGATE_MAX_TOKEN_LIFETIME).")
  String maxTokenLifetime;

  @Option(names = "--min-refresh-interval",
      defaultValue = "${env:ICEGATE_MIN_REFRESH_INTERVAL:-PT5S}",
      description = "Shortest interval the scheduler refreshes an integration at (e.g. 5m, "
          + "PT5M), at least PT5S: overlays asking for less are refreshed at this interval (env "
          + "ICEGATE_MIN_REFRESH_INTERVAL).")
  String minRefreshInterval;

  @Override
  public Integer call() throws Exception {
    // The one read of the environment beyond the flags' own: everything below gets values.
    return serve(System.getenv());
  }

  /** Starts the server with the parsed flags and {@code environment}; the exit code. */
  int serve(Map<String, String> environment) throws Exception {
    Gateway gateway;
    try {
      GatewaySettings settings;
      try {
        settings = settingsFrom(environment);
      } catch (IllegalArgumentException e) {
        // the settings' own checks of flag and environment values (reconcile concurrency,
        // refresh interval, token lifetime): an operator's mistake
        return refused(e);
      }
      gateway = Gateway.start(settings, System.out);
    } catch (ListeningPort.UnavailableException | DataDirLock.InUseException
        | MasterKey.UnusableKeyException
        | ReconcileSettings.InvalidSettingException e) {
      return refused(e);
    }
    Runtime.getRuntime().addShutdownHook(new Thread(gateway::close, "icegate-shutdown"));
    System.out.println("icegate listening on http://" + bind + ":" + gateway.port());
    System.out.flush();
    gateway.join();
    return 0;
  }

  /** An operator's mistake, not a defect: one line, no stack trace; exit code 1. */
  private int refused(Exception e) {
    spec.commandLine().getErr().println("icegate: " + e.getMessage());
    spec.commandLine().getErr().flush();
    return 1;
  }

  /**
   * The settings the parsed flags and {@code environment} describe: the bootstrap token ({@code
   * ICEGATE_BOOTSTRAP_TOKEN}), the master key ({@link MasterKeySource#fromEnvironment}) and the
   * reconcile concurrency ({@link ReconcileSettings#CONCURRENCY_ENV}).
   *
   * @throws ReconcileSettings.InvalidSettingException when the reconcile concurrency is not an
   *     integer from 1 to 256
   */
  GatewaySettings settingsFrom(Map<String, String> environment) {
    return settings(environment.get("ICEGATE_BOOTSTRAP_TOKEN"),
        MasterKeySource.fromEnvironment(environment),
        ReconcileSettings.withConcurrency(environment.get(ReconcileSettings.CONCURRENCY_ENV)));
  }

  /** The settings the parsed flags describe, with no master key or concurrency configured. */
  GatewaySettings settings(String bootstrapToken) {
    return settings(bootstrapToken, MasterKeySource.NONE, ReconcileSettings.DEFAULT);
  }

  private GatewaySettings settings(String bootstrapToken, MasterKeySource masterKey,
      ReconcileSettings reconcile) {
    OutboundAddressPolicy policy = OutboundAddressPolicy.defaults();
    if (denyLoopbackAddresses) {
      policy = policy.denyLoopback();
    }
    if (denyPrivateAddresses) {
      policy = policy.denyPrivate();
    }
    if (allowMetadataAddresses) {
      policy = policy.allowMetadataAddresses();
    }
    return new GatewaySettings(dataDir.toAbsolutePath().normalize(), store, bind, port,
        allowLocalFiles, bootstrapToken, policy, masterKey, reconcile,
        duration(maxTokenLifetime, "--max-token-lifetime", "token lifetime"),
        duration(minRefreshInterval, "--min-refresh-interval", "minimum refresh interval"));
  }

  /**
   * A duration flag's value by the parser the CLI and the admin API use ({@link DurationText}:
   * {@code 5m}, {@code 90d}, {@code 2w}, {@code P1W}, {@code PT12H}), or null when unset; read as
   * text rather than by a picocli converter so a bad value is one line, not the usage.
   *
   * @throws IllegalArgumentException naming the flag and what it sets
   */
  private static Duration duration(String value, String flag, String what) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return DurationText.parse(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("the " + what + " (" + flag + ") " + e.getMessage(), e);
    }
  }
}
