package io.icegate.overlay.filecheck;

import java.util.Optional;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.orc.OrcMetrics;

/**
 * Checks one ORC data or delete file with Iceberg's ORC reader: it opens the file (postscript,
 * footer, stripe list and column statistics, through Iceberg's InputFile, no Hadoop FileSystem),
 * maps the columns by field id or the table's name mapping, and the footer's row count must equal
 * the manifest's. Stripes are not decoded.
 */
final class OrcFileCheck {

  private OrcFileCheck() {}

  /**
   * @param input the file, whose length is already known to equal the manifest's
   * @return a sentence saying what is wrong, or empty when the file conforms
   */
  static Optional<String> problem(ContentFile<?> file, InputFile input, TableColumns columns) {
    NameMapping mapping = columns.nameMapping().orElse(null);
    Metrics metrics;
    try {
      metrics = OrcMetrics.fromInputFile(input, MetricsConfig.getDefault(), mapping);
    } catch (RuntimeException e) {
      return Optional.of("the file is not a readable ORC file: " + DataFileCheck.reason(e));
    }
    if (metrics.recordCount() != file.recordCount()) {
      return Optional.of(DataFileCheck.rowCountMismatch(metrics.recordCount(), file.recordCount()));
    }
    return Optional.empty();
  }
}
