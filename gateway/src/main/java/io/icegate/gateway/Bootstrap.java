package io.icegate.gateway;

import io.icegate.core.auth.ApiTokens;
import io.icegate.core.auth.TokenGrant;
import io.icegate.core.auth.TokenRole;
import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.Resource;
import io.icegate.core.repo.Repositories;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;

/**
 * First start on an empty store (DESIGN.md "Running it"): account {@code default}, catalog {@code
 * default} with its warehouse under the data dir, and a server-admin token, all in one store
 * transaction. The token is the configured one ({@code ICEGATE_BOOTSTRAP_TOKEN}) or a generated
 * one, which is printed once and written to {@code DATA_DIR/bootstrap-token} (mode 0600). Only the
 * token's digest is stored.
 */
final class Bootstrap {
  static final String DEFAULT_NAME = "default";
  static final String TOKEN_FILE = "bootstrap-token";

  private Bootstrap() {}

  /**
   * Creates the defaults when account {@code default} does not exist yet; otherwise only records
   * {@code configuredToken} (when given) so that a set {@code ICEGATE_BOOTSTRAP_TOKEN} always
   * works.
   */
  static void ensure(Repositories repositories, ApiTokens tokens, Path dataDir,
      String configuredToken, PrintStream out) throws IOException {
    Optional<Resource<Account>> existing =
        repositories.accounts().getByName(NameScope.ACCOUNT_WIDE, DEFAULT_NAME);
    if (existing.isPresent()) {
      if (configuredToken != null) {
        repositories.store().run(tx -> {
          tokens.put(tx, configuredToken, adminGrant(existing.get().id()));
          return null;
        });
      }
      return;
    }
    String token = configuredToken != null ? configuredToken : ApiTokens.newToken();
    // Absolute: a relative file: warehouse would follow the server's working directory.
    Path warehouse = dataDir.toAbsolutePath().normalize().resolve("warehouse");
    Files.createDirectories(warehouse);
    repositories.store().run(tx -> {
      Resource<Account> account = repositories.accounts().create(tx, new Account(DEFAULT_NAME));
      repositories.catalogs(account.id()).create(tx,
          new Catalog(DEFAULT_NAME, "file:" + warehouse, Map.of()));
      tokens.put(tx, token, adminGrant(account.id()));
      return null;
    });
    if (configuredToken == null) {
      Path file = dataDir.resolve(TOKEN_FILE);
      Files.deleteIfExists(file);
      Files.createFile(file, PosixFilePermissions.asFileAttribute(
          PosixFilePermissions.fromString("rw-------")));
      Files.writeString(file, token + "\n", StandardCharsets.UTF_8, StandardOpenOption.WRITE);
      out.println("icegate bootstrap admin token (shown once; also in " + file + "): " + token);
    }
  }

  private static TokenGrant adminGrant(String accountId) {
    return new TokenGrant(accountId, TokenRole.ADMIN, true, "bootstrap");
  }
}
