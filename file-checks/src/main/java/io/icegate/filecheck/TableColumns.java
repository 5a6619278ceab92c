package io.icegate.filecheck;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

/**
 * What a table's files may contain, by Iceberg field id: the columns of the table's schemas (the
 * current one first, then older ones newest first, so that a file written before a column was
 * dropped still maps), the columns of position delete files, and the row-lineage columns. Decides
 * whether a file's columns conform (Iceberg spec "Column Projection", "Schema Evolution").
 */
final class TableColumns {

  private static final Schema RESERVED =
      new Schema(
          MetadataColumns.DELETE_FILE_PATH,
          MetadataColumns.DELETE_FILE_POS,
          Types.NestedField.optional(
              MetadataColumns.DELETE_FILE_ROW_FIELD_ID,
              MetadataColumns.DELETE_FILE_ROW_FIELD_NAME,
              Types.StructType.of()),
          MetadataColumns.ROW_ID,
          MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER);

  /** The problem of a file whose columns carry no field ids in a table without a name mapping. */
  static final String NO_IDS_NO_MAPPING =
      "the file's columns carry no Iceberg field ids and the table has no name mapping ("
          + TableProperties.DEFAULT_NAME_MAPPING
          + ")";

  /** The problem of a column left without an id after the name mapping was applied. */
  static String unmapped(String column) {
    return "column " + column + " has no Iceberg field id and no entry in the table's name mapping";
  }

  private final List<Schema> schemas;
  private final NameMapping nameMapping;
  private final String nameMappingError;

  TableColumns(TableMetadata metadata) {
    List<Schema> ordered = new ArrayList<>();
    ordered.add(metadata.schema());
    metadata.schemas().stream()
        .filter(schema -> schema.schemaId() != metadata.currentSchemaId())
        .sorted(Comparator.comparingInt(Schema::schemaId).reversed())
        .forEach(ordered::add);
    ordered.add(RESERVED);
    // Schema builds its id index lazily; build it now, before checks share it across threads.
    ordered.forEach(schema -> schema.findField(0));
    this.schemas = List.copyOf(ordered);
    String json = metadata.property(TableProperties.DEFAULT_NAME_MAPPING, null);
    NameMapping parsed = null;
    String error = null;
    if (json != null) {
      try {
        parsed = NameMappingParser.fromJson(json);
      } catch (RuntimeException e) {
        error =
            "the table's name mapping ("
                + TableProperties.DEFAULT_NAME_MAPPING
                + ") cannot be parsed: "
                + e.getMessage();
      }
    }
    this.nameMapping = parsed;
    this.nameMappingError = error;
  }

  /**
   * The table's name mapping ({@code schema.name-mapping.default}), for files without field ids.
   *
   * @return empty when the table has none
   * @throws IllegalStateException when the property does not parse, with a sentence saying so
   */
  Optional<NameMapping> nameMapping() {
    if (nameMappingError != null) {
      throw new IllegalStateException(nameMappingError);
    }
    return Optional.ofNullable(nameMapping);
  }

  /**
   * As {@link #nonConforming(Schema, Set)} for a file schema that {@code convert} turns into
   * Iceberg types first (Iceberg's Parquet, ORC or Avro schema converter); a conversion that
   * fails is itself the sentence.
   */
  Optional<String> nonConforming(Supplier<Schema> convert, Set<Integer> carriedIds) {
    Schema converted;
    try {
      converted = convert.get();
    } catch (RuntimeException e) {
      return Optional.of(
          "the file's column types have no Iceberg equivalent: " + DataFileCheck.reason(e));
    }
    return nonConforming(converted, carriedIds);
  }

  /**
   * The first column of {@code fileSchema} among {@code carriedIds} that the table cannot read:
   * an id no schema of the table has, or a type that is neither the table's type nor promotable to
   * it ({@link TypeUtil#isPromotionAllowed}).
   *
   * @param fileSchema the file's columns as Iceberg types, with the ids the file carries
   * @param carriedIds the ids the file (or the name mapping) really gave; others were invented
   *     by a converter and are not checked
   * @return a sentence naming the column, or empty when every column conforms
   */
  Optional<String> nonConforming(Schema fileSchema, Set<Integer> carriedIds) {
    for (Integer id : new TreeSet<>(carriedIds)) {
      Types.NestedField column = fileSchema.findField(id);
      if (column == null) {
        continue;
      }
      String name = Optional.ofNullable(fileSchema.findColumnName(id)).orElse(column.name());
      Types.NestedField expected = find(id);
      if (expected == null) {
        return Optional.of(
            "column " + name + " has field id " + id + ", which no schema of the table has");
      }
      if (!compatible(column.type(), expected.type())) {
        return Optional.of(
            "column "
                + name
                + " (field id "
                + id
                + ") is "
                + describe(column.type())
                + " in the file but "
                + describe(expected.type())
                + " in the table schema");
      }
    }
    return Optional.empty();
  }

  private Types.NestedField find(int id) {
    for (Schema schema : schemas) {
      Types.NestedField field = schema.findField(id);
      if (field != null) {
        return field;
      }
    }
    return null;
  }

  private static boolean compatible(Type inFile, Type inTable) {
    if (inFile.isPrimitiveType() && inTable.isPrimitiveType()) {
      return inFile.equals(inTable)
          || TypeUtil.isPromotionAllowed(inFile, inTable.asPrimitiveType());
    }
    // Nested columns: the kinds must agree; their fields are checked by their own ids.
    return inFile.typeId() == inTable.typeId();
  }

  private static String describe(Type type) {
    return type.isPrimitiveType() ? type.toString() : type.typeId().name().toLowerCase(Locale.ROOT);
  }
}
