package io.icegate.gateway;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code icegate serve}: runs the gateway until interrupted. Every flag has an environment variable
 * (DESIGN.md "Running it"); a flag given on the command line wins over its variable.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = "Run the gateway (Iceberg REST under /iceberg, /healthz, /readyz, /metrics).")
public final class ServeCommand implements Callable<Integer> {

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

  @Override
  public Integer call() throws Exception {
    GatewaySettings settings = new GatewaySettings(dataDir.toAbsolutePath().normalize(), store,
        bind, port, allowLocalFiles, System.getenv("ICEGATE_BOOTSTRAP_TOKEN"));
    Gateway gateway = Gateway.start(settings, System.out);
    Runtime.getRuntime().addShutdownHook(new Thread(gateway::close, "icegate-shutdown"));
    System.out.println("icegate listening on http://" + bind + ":" + gateway.port());
    System.out.flush();
    gateway.join();
    return 0;
  }
}
