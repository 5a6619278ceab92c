package io.icegate.gateway.catalog;

import io.icegate.core.model.Catalog;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.Resource;
import io.icegate.core.repo.Repositories;
import io.icegate.gateway.auth.Principal;
import io.icegate.gateway.fileio.LocalFileIO;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileIO;

/**
 * Resolves the Catalog a request addresses: by name ({@code warehouse=} of the config route) or by
 * immutable id (the {@code prefix} of every other route), always within the caller's account. A
 * Catalog of another account is answered exactly like a missing one (404), so ids do not leak.
 */
public final class CatalogDirectory {
  private final Repositories repositories;
  private final MetadataCache cache;
  private final FileIO localFiles;

  public CatalogDirectory(Repositories repositories, MetadataCache cache) {
    this.repositories = repositories;
    this.cache = cache;
    LocalFileIO io = new LocalFileIO();
    io.initialize(Map.of());
    this.localFiles = io;
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
    Resource<Catalog> catalog = RepositoryCatalog.call(() -> {
      try {
        return repositories.catalogs(principal.accountId()).get(prefix);
      } catch (io.icegate.core.error.IcegateException e) {
        // A malformed id is as absent as an unknown one.
        return Optional.<Resource<Catalog>>empty();
      }
    }).orElseThrow(() -> new NotFoundException("Catalog does not exist: %s", prefix));
    return new RepositoryCatalog(repositories, catalog, fileIo(catalog), cache);
  }

  private FileIO fileIo(Resource<Catalog> catalog) {
    String warehouse = catalog.spec().warehouse();
    if (warehouse != null && !warehouse.startsWith("file:") && !warehouse.startsWith("/")) {
      throw new UnsupportedOperationException(
          "Catalog " + catalog.spec().name() + ": only file: warehouses are served yet");
    }
    return localFiles;
  }
}
