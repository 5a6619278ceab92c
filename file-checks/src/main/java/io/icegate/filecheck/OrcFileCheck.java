package io.icegate.filecheck;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.mapping.MappedField;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.orc.ORCSchemaUtil;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.TypeDescription;

/**
 * Checks one ORC data or delete file by its tail (postscript, footer, stripe list; stripes are not
 * read), with ORC's reader reading through the Iceberg InputFile: every column maps by the {@code
 * iceberg.id} type attribute (Iceberg spec "ORC"), or through the table's name mapping when the
 * file carries no ids, to a table column of a compatible type (Iceberg's conversion of the ORC
 * type); the footer's row count equals the manifest's.
 */
final class OrcFileCheck {

  /** The type attribute Iceberg's ORC writer stores a field id in. */
  private static final String ICEBERG_ID = "iceberg.id";

  private OrcFileCheck() {}

  /**
   * @param input the file, whose length is already known to equal the manifest's
   * @return a sentence saying what is wrong, or empty when the file conforms
   */
  static Optional<String> problem(ContentFile<?> file, InputFile input, TableColumns columns) {
    TypeDescription fileSchema;
    long rows;
    // No default resources: nothing of the server's Hadoop setup may change how files are read.
    Configuration conf = new Configuration(false);
    OrcFile.ReaderOptions options =
        OrcFile.readerOptions(conf)
            .filesystem(new InputFileSystem(input, conf))
            .maxLength(input.getLength())
            .useUTCTimestamp(true);
    try (Reader reader = OrcFile.createReader(new Path(input.location()), options)) {
      fileSchema = reader.getSchema();
      rows = reader.getNumberOfRows();
    } catch (IOException | RuntimeException e) {
      return Optional.of("the file is not a readable ORC file: " + DataFileCheck.reason(e));
    }

    Set<Integer> carried = new HashSet<>();
    collectIds(fileSchema, carried);
    if (carried.isEmpty()) {
      Optional<NameMapping> mapping = columns.nameMapping();
      if (mapping.isEmpty()) {
        return Optional.of(TableColumns.NO_IDS_NO_MAPPING);
      }
      fileSchema = fileSchema.clone();
      applyMapping(fileSchema, mapping.get(), new ArrayList<>());
      collectIds(fileSchema, carried);
    }
    Optional<String> unmapped = columnWithoutId(fileSchema, "");
    if (unmapped.isPresent()) {
      return unmapped;
    }
    TypeDescription mapped = fileSchema;
    Optional<String> nonConforming =
        columns.nonConforming(() -> ORCSchemaUtil.convert(mapped), carried);
    if (nonConforming.isPresent()) {
      return nonConforming;
    }
    if (rows != file.recordCount()) {
      return Optional.of(DataFileCheck.rowCountMismatch(rows, file.recordCount()));
    }
    return Optional.empty();
  }

  private static void collectIds(TypeDescription type, Set<Integer> ids) {
    List<TypeDescription> children = type.getChildren();
    if (children == null) {
      return;
    }
    for (TypeDescription child : children) {
      String id = child.getAttributeValue(ICEBERG_ID);
      if (id != null) {
        ids.add(Integer.parseInt(id));
      }
      collectIds(child, ids);
    }
  }

  /** Sets {@code iceberg.id} from the mapping, by the names Iceberg's mapping uses for ORC. */
  private static void applyMapping(TypeDescription type, NameMapping mapping, List<String> path) {
    List<TypeDescription> children = type.getChildren();
    if (children == null) {
      return;
    }
    for (int i = 0; i < children.size(); i++) {
      TypeDescription child = children.get(i);
      List<String> childPath = new ArrayList<>(path);
      childPath.add(childName(type, i));
      MappedField mapped = mapping.find(childPath);
      if (mapped != null && mapped.id() != null) {
        child.setAttribute(ICEBERG_ID, String.valueOf(mapped.id()));
      }
      applyMapping(child, mapping, childPath);
    }
  }

  private static String childName(TypeDescription parent, int index) {
    return switch (parent.getCategory()) {
      case STRUCT -> parent.getFieldNames().get(index);
      case LIST -> "element";
      case MAP -> index == 0 ? "key" : "value";
      default -> "_" + index; // unions: not mappable, reported as unmapped
    };
  }

  private static Optional<String> columnWithoutId(TypeDescription type, String prefix) {
    List<TypeDescription> children = type.getChildren();
    if (children == null) {
      return Optional.empty();
    }
    for (int i = 0; i < children.size(); i++) {
      TypeDescription child = children.get(i);
      String name = prefix + childName(type, i);
      if (child.getAttributeValue(ICEBERG_ID) == null) {
        return Optional.of(TableColumns.unmapped(name));
      }
      Optional<String> nested = columnWithoutId(child, name + ".");
      if (nested.isPresent()) {
        return nested;
      }
    }
    return Optional.empty();
  }
}
