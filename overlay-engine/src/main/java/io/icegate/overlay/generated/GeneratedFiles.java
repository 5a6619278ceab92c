package io.icegate.overlay.generated;

import io.icegate.core.model.Catalog;
import io.icegate.core.model.Resource;
import java.util.Map;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

/**
 * Where the Iceberg files icegate generates for a captured Delta table live (issue 26): manifests,
 * manifest lists and delete files under the target Catalog's warehouse, one prefix per Table
 * ({@code <warehouse>/_icegate/delta/<table id>}), while the data files stay in the upstream's
 * storage. Reading such a table therefore takes two FileIOs, routed by prefix ({@link #routing}).
 */
public final class GeneratedFiles {
  /** Below a Catalog's warehouse: the directory of every Table's generated files. */
  public static final String PREFIX = "_icegate/delta/";

  private GeneratedFiles() {}

  /**
   * The generated-files prefix of Table {@code tableId} of {@code catalog}, no trailing slash.
   *
   * @throws UnsupportedOperationException when the Catalog has no warehouse
   */
  public static String location(Resource<Catalog> catalog, String tableId) {
    String warehouse = catalog.spec().warehouse();
    if (warehouse == null) {
      throw new UnsupportedOperationException(
          "Catalog " + catalog.spec().name() + " has no warehouse for generated files");
    }
    while (warehouse.endsWith("/")) {
      warehouse = warehouse.substring(0, warehouse.length() - 1);
    }
    return warehouse + "/" + PREFIX + tableId;
  }

  /**
   * {@code file:///p} as {@code file:/p}, the form Hadoop's paths take when written; other
   * locations as they are.
   */
  static String local(String location) {
    return location.startsWith("file:///") ? "file:/" + location.substring(8) : location;
  }

  /**
   * A read-only FileIO reading paths under {@code generatedLocation} with {@code generated} and
   * every other path with {@code upstream}. Closing it closes neither.
   */
  public static FileIO routing(String generatedLocation, FileIO generated, FileIO upstream) {
    String prefix = local(generatedLocation) + "/";
    return new FileIO() {
      @Override
      public InputFile newInputFile(String path) {
        return (local(path).startsWith(prefix) ? generated : upstream).newInputFile(path);
      }

      @Override
      public InputFile newInputFile(String path, long length) {
        return (local(path).startsWith(prefix) ? generated : upstream).newInputFile(path, length);
      }

      @Override
      public OutputFile newOutputFile(String path) {
        throw new UnsupportedOperationException("read-only: " + path);
      }

      @Override
      public void deleteFile(String path) {
        throw new UnsupportedOperationException("read-only: " + path);
      }

      @Override
      public Map<String, String> properties() {
        return Map.of();
      }
    };
  }
}
