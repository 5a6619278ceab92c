package io.icegate.overlay.generated;

import io.icegate.core.model.Catalog;
import io.icegate.core.model.Resource;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.FileIO;

/**
 * The FileIO that writes a target Catalog's files: where Delta capture (issue 26) puts the
 * manifests, manifest lists and delete files it generates, under the Catalog's warehouse. The
 * server gives its own (the Catalog's storage settings and keys); {@link #LOCAL} serves only
 * {@code file:} warehouses (tests, local use).
 */
@FunctionalInterface
public interface CatalogFiles {

  /**
   * The FileIO for {@code catalog}'s warehouse; the caller does not close it.
   *
   * @throws UnsupportedOperationException when no FileIO here serves the warehouse's scheme
   */
  FileIO forCatalog(Resource<Catalog> catalog);

  /** {@code file:} warehouses only, through Iceberg's Hadoop FileIO on the local file system. */
  CatalogFiles LOCAL = new CatalogFiles() {
    private final FileIO local = new HadoopFileIO(new Configuration());

    @Override
    public FileIO forCatalog(Resource<Catalog> catalog) {
      String warehouse = catalog.spec().warehouse();
      if (warehouse == null || !warehouse.startsWith("file:")) {
        throw new UnsupportedOperationException(
            "Catalog " + catalog.spec().name() + ": no FileIO to write generated files under "
                + warehouse);
      }
      return local;
    }
  };
}
