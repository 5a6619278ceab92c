package io.icegate.cli.config;

import io.icegate.cli.CliEnvironment;
import io.icegate.cli.CliException;
import io.icegate.cli.ExitCode;
import io.icegate.cli.output.OutputFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The options every admin command takes (a picocli mixin): where the gateway is, which token to
 * send, which account to act in, and the output format. Each setting comes from its flag, else its
 * environment variable, else {@code ~/.icegate/config}, else the default. There is deliberately no
 * flag carrying a token: arguments are visible to every user of the machine.
 */
public final class GlobalOptions {
  public static final String DEFAULT_ENDPOINT = "http://127.0.0.1:8181";
  public static final String DEFAULT_ACCOUNT = "default";

  private final CliEnvironment environment;

  @Option(names = "--endpoint", paramLabel = "URL",
      description = "Gateway base URL (env ICEGATE_ENDPOINT, config endpoint, default "
          + DEFAULT_ENDPOINT + ").")
  String endpoint;

  @Option(names = "--token-file", paramLabel = "FILE",
      description = "File holding the bearer token (else env ICEGATE_TOKEN, else config "
          + "token-file).")
  Path tokenFile;

  @Option(names = "--account", paramLabel = "NAME|ID",
      description = "Account to act in, by name or id (env ICEGATE_ACCOUNT, config account, "
          + "default " + DEFAULT_ACCOUNT + ").")
  String account;

  @Option(names = {"-o", "--output"}, paramLabel = "table|json", defaultValue = "table",
      description = "table (for people) or json (for scripts); default ${DEFAULT-VALUE}.")
  OutputFormat output;

  public GlobalOptions(CliEnvironment environment) {
    this.environment = environment;
  }

  public CliEnvironment environment() {
    return environment;
  }

  public OutputFormat output() {
    return output;
  }

  /**
   * The settings after precedence (flag, environment, config file, default).
   *
   * @throws CliException USAGE for an unreadable token file or config file, or no token at all
   */
  public Settings resolve() {
    ConfigFile file = ConfigFile.read(ConfigFile.location(environment.home()));
    String url;
    String source;
    if (endpoint != null) {
      url = endpoint;
      source = "--endpoint";
    } else if (environment.variable("ICEGATE_ENDPOINT").isPresent()) {
      url = environment.variable("ICEGATE_ENDPOINT").get();
      source = "ICEGATE_ENDPOINT";
    } else {
      url = file.get("endpoint").orElse(DEFAULT_ENDPOINT);
      source = "endpoint in " + ConfigFile.location(environment.home());
    }
    Endpoint.check(url, source);
    String accountRef = first(Optional.ofNullable(account), environment.variable("ICEGATE_ACCOUNT"),
        file.get("account")).orElse(DEFAULT_ACCOUNT);
    String token;
    if (tokenFile != null) {
      token = readToken(tokenFile);
    } else if (environment.variable("ICEGATE_TOKEN").isPresent()) {
      token = environment.variable("ICEGATE_TOKEN").get().trim();
    } else {
      token = file.path("token-file", environment.home()).map(GlobalOptions::readToken).orElseThrow(() ->
          new CliException(ExitCode.USAGE, "no token: pass --token-file FILE, set ICEGATE_TOKEN, "
              + "or set token-file in " + ConfigFile.location(environment.home())));
    }
    return new Settings(url.endsWith("/") ? url.substring(0, url.length() - 1) : url, token,
        accountRef);
  }

  @SafeVarargs
  private static Optional<String> first(Optional<String>... candidates) {
    for (Optional<String> candidate : candidates) {
      if (candidate.isPresent()) {
        return candidate;
      }
    }
    return Optional.empty();
  }

  private static String readToken(Path file) {
    try {
      String token = Files.readString(file).trim();
      if (token.isEmpty()) {
        throw new CliException(ExitCode.USAGE, "token file " + file + " is empty");
      }
      return token;
    } catch (IOException e) {
      throw new CliException(ExitCode.USAGE, "cannot read token file " + file + " ("
          + e.getClass().getSimpleName() + ")");
    }
  }

  /**
   * Resolved connection settings. {@code toString} leaves the token out.
   *
   * @param endpoint base URL without a trailing slash
   * @param token bearer token
   * @param account account name or id, unresolved
   */
  public record Settings(String endpoint, String token, String account) {
    @Override
    public String toString() {
      return "Settings[endpoint=" + endpoint + ", account=" + account + ", token=redacted]";
    }
  }
}
