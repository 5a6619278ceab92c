package io.icegate.gateway.catalog;

import io.icegate.core.model.Catalog;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.Resource;
import io.icegate.core.repo.Repositories;
import io.icegate.gateway.auth.Principal;
import io.icegate.gateway.fileio.CatalogFileIO;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.Optional;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * Resolves the Catalog a request addresses: by name ({@code warehouse=} of the config route) or by
 * immutable id (the {@code prefix} of every other route), always within the caller's account. A
 * Catalog of another account is answered exactly like a missing one (404), so ids do not leak.
 *
 * <p>Catalog records found by prefix are reused for a few seconds: every request names one, and
 * they change rarely. The copy is never trusted for existence: every store transaction a {@link
 * RepositoryCatalog} runs first reads the Catalog's record in that same transaction, answers 404
 * when it is gone and drops the cached copy when it is gone or changed (so a deletion in any
 * gateway process on the store takes effect at once, a change from the next request on).
 */
public final class CatalogDirectory {
  private final Repositories repositories;
  private final MetadataCache cache;
  private final CatalogFileIO files;
  /**
   * The adapter of each account/prefix, for a few seconds: it holds only the Catalog record and
   * what derives from it (FileIO, warehouse locations), so one serves every request until the
   * record is found changed ({@code RepositoryCatalog}'s stale callback) or expires; building
   * one per request was about a tenth of a load-table's CPU (issue 4's bench).
   */
  private final Cache<String, Optional<RepositoryCatalog>> byPrefix =
      Caffeine.newBuilder().expireAfterWrite(Duration.ofSeconds(5)).maximumSize(10_000).build();

  public CatalogDirectory(Repositories repositories, MetadataCache cache) {
    this(repositories, cache, new CatalogFileIO());
  }

  /** A directory whose catalogs read and write through {@code files}. */
  public CatalogDirectory(Repositories repositories, MetadataCache cache, CatalogFileIO files) {
    this.repositories = repositories;
    this.cache = cache;
    this.files = files;
  }

  /** The Catalog named {@code name} in the caller's account, if any. */
  public Optional<Resource<Catalog>> byName(Principal principal, String name) {
    return RepositoryCatalog.call(() ->
        repositories.catalogs(principal.accountId()).getByName(NameScope.ACCOUNT_WIDE, name));
  }

  /**
   * The adapter of the Catalog with id {@code prefix} in the caller's account.
   *
   * @throws NotFoundException when there is none
   */
  public RepositoryCatalog forPrefix(Principal principal, String prefix) {
    if (prefix == null || prefix.isEmpty()) {
      throw new NotFoundException("Catalog prefix is required");
    }
    String key = principal.accountId() + '/' + prefix;
    return byPrefix.get(key, k -> RepositoryCatalog.call(() -> {
      Optional<Resource<Catalog>> catalog;
      try {
        catalog = repositories.catalogs(principal.accountId()).get(prefix);
      } catch (io.icegate.core.error.IcegateException e) {
        // A malformed id is as absent as an unknown one.
        catalog = Optional.empty();
      }
      return catalog.map(c -> {
        // a stale adapter forgets only itself, not a fresh one built after it
        RepositoryCatalog[] made = new RepositoryCatalog[1];
        made[0] = new RepositoryCatalog(repositories, c, files.forCatalog(c), cache,
            () -> byPrefix.asMap().remove(key, Optional.of(made[0])));
        return made[0];
      });
    })).orElseThrow(() -> new NotFoundException("Catalog does not exist: %s", prefix));
  }
}
