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
 * gateway process on the store takes effect at once). A request that writes takes its adapter
 * from {@link #currentForPrefix}, checked against the record read at its start, so a change
 * (storage endpoint or keys, table defaults) applies to every write that starts after it; reads
 * may see the previous settings for up to 5 s.
 */
public final class CatalogDirectory {
  private static final String PREFIX_HINT = "the prefix is a Catalog's id, not its name:"
      + " GET /iceberg/v1/config?warehouse=<catalog name> answers it as overrides.prefix";
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
   * The adapter of the Catalog with id {@code prefix} in the caller's account, possibly built from
   * a copy of its record a few seconds old (see the class comment).
   *
   * @throws NotFoundException when there is none
   */
  public RepositoryCatalog forPrefix(Principal principal, String prefix) {
    String key = key(principal, prefix);
    return byPrefix.get(key, k -> read(principal, prefix).map(c -> adapter(key, c)))
        .orElseThrow(() -> missing(prefix));
  }

  /**
   * The adapter of the Catalog with id {@code prefix}, built from its record as the store holds it
   * now: for requests that write, so that a metadata file is never written with storage settings
   * (endpoint, keys) or table defaults older than the Catalog's last change, which a cached copy
   * could be for a few seconds. One point read more than {@link #forPrefix}; the cached adapter is
   * reused when its record is still the current one.
   *
   * @throws NotFoundException when there is none
   */
  public RepositoryCatalog currentForPrefix(Principal principal, String prefix) {
    String key = key(principal, prefix);
    Optional<Resource<Catalog>> current = read(principal, prefix);
    if (current.isEmpty()) {
      byPrefix.invalidate(key);
      throw missing(prefix);
    }
    Optional<RepositoryCatalog> cached = byPrefix.getIfPresent(key);
    if (cached != null && cached.isPresent()
        && cached.get().catalogGeneration() == current.get().generation()) {
      return cached.get();
    }
    RepositoryCatalog fresh = adapter(key, current.get());
    byPrefix.put(key, Optional.of(fresh));
    return fresh;
  }

  private static String key(Principal principal, String prefix) {
    if (prefix == null || prefix.isEmpty()) {
      throw new NotFoundException("Catalog prefix is required (%s)", PREFIX_HINT);
    }
    return principal.accountId() + '/' + prefix;
  }

  /**
   * The 404 for an unknown prefix. Clients configured by hand often put the Catalog's name where
   * its id belongs, so the message says where the prefix comes from; it names no Catalog, so it
   * tells nothing the caller could not learn from the config route.
   */
  private static NotFoundException missing(String prefix) {
    return new NotFoundException("Catalog does not exist: %s (%s)", prefix, PREFIX_HINT);
  }

  private Optional<Resource<Catalog>> read(Principal principal, String prefix) {
    return RepositoryCatalog.call(() -> {
      try {
        return repositories.catalogs(principal.accountId()).get(prefix);
      } catch (io.icegate.core.error.IcegateException e) {
        // A malformed id is as absent as an unknown one.
        return Optional.empty();
      }
    });
  }

  private RepositoryCatalog adapter(String key, Resource<Catalog> catalog) {
    // a stale adapter forgets only itself, not a fresh one built after it
    RepositoryCatalog[] made = new RepositoryCatalog[1];
    made[0] = new RepositoryCatalog(repositories, catalog, files.forCatalog(catalog), cache,
        () -> byPrefix.asMap().remove(key, Optional.of(made[0])));
    return made[0];
  }
}
