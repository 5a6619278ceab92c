package io.icegate.access.delta.iceberg;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.access.delta.schema.DeltaSchemas;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.mapping.MappedField;
import org.apache.iceberg.mapping.MappedFields;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * A Delta schema as an Iceberg schema whose field ids never change and are never reused across
 * captures, with the name mapping that lets Iceberg readers find columns in files without field ids.
 *
 * <p>Ids, per field (keyed by its path of Delta <em>physical</em> names, with {@code element},
 * {@code key}, {@code value} for nested positions):
 *
 * <ol>
 *   <li>the Delta column-mapping id, where the table uses column mapping and Delta numbered the
 *       field: files written under column mapping carry these ids, so Iceberg must use them;
 *   <li>else the id the previous capture gave the same path (read back from its {@value
 *       TableProperties#DEFAULT_NAME_MAPPING}: the mapping is the stored id assignment);
 *   <li>else a fresh id from {@link #FIRST_ASSIGNED_ID} upward, above every id the table's Iceberg
 *       history ever held. Delta's {@code maxColumnId} only grows by one per added column, so it
 *       cannot reach this range in any real table, and the two kinds of ids never collide.
 * </ol>
 *
 * <p>Types come from {@link DeltaSchemas}, the one Delta-to-Iceberg type mapping; this class only
 * renumbers its output and walks the Delta schema beside it for physical names and Delta ids.
 */
public final class StableSchema {

  /** The first id icegate assigns itself: 2^30, far above any Delta {@code maxColumnId}. */
  public static final int FIRST_ASSIGNED_ID = 1 << 30;

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The mapped schema.
   *
   * @param schema the Iceberg schema with stable ids ({@code schema-id} 0; the metadata builder
   *     numbers it)
   * @param nameMapping every field under its physical name
   * @param lastColumnId the highest id any schema of the table ever held, this one included
   * @param physicalPaths for each field not inside a list or map, its path of physical names: where
   *     Delta's statistics and partition values name it
   * @param renumbered whether a field the previous capture had now takes another id: Delta numbered
   *     it when column mapping was enabled on the existing table (files written since carry
   *     Delta's ids, so Iceberg must use them), and snapshots captured before cannot be read with
   *     the new ids
   */
  public record Mapped(
      Schema schema,
      NameMapping nameMapping,
      int lastColumnId,
      Map<Integer, List<String>> physicalPaths,
      boolean renumbered) {
    public Mapped {
      physicalPaths = Map.copyOf(physicalPaths);
    }

    /** A mapping that renumbered nothing. */
    public Mapped(
        Schema schema, NameMapping nameMapping, int lastColumnId, Map<Integer, List<String>> physicalPaths) {
      this(schema, nameMapping, lastColumnId, physicalPaths, false);
    }
  }

  private final boolean columnMapping;
  private final NameMapping previous;
  private final Map<Integer, List<String>> physicalPaths = new HashMap<>();
  private int nextId;
  private int lastColumnId;
  private boolean renumbered;

  private StableSchema(boolean columnMapping, TableMetadata previousCapture) {
    this.columnMapping = columnMapping;
    String mapping =
        previousCapture == null
            ? null
            : previousCapture.properties().get(TableProperties.DEFAULT_NAME_MAPPING);
    this.previous = mapping == null ? NameMapping.empty() : NameMappingParser.fromJson(mapping);
    this.lastColumnId = previousCapture == null ? 0 : previousCapture.lastColumnId();
    this.nextId = Math.max(FIRST_ASSIGNED_ID, lastColumnId + 1);
  }

  /**
   * @param deltaSchemaJson the Delta {@code schemaString}
   * @param tableProperties the Delta table's {@code metaData.configuration}
   * @param previousCapture the metadata of the previous capture of this table, or null
   * @throws DeltaSchemas.UnsupportedTypeException for a type Iceberg cannot represent
   * @throws IllegalArgumentException when the text is not a Delta struct
   */
  public static Mapped map(
      String deltaSchemaJson, Map<String, String> tableProperties, TableMetadata previousCapture) {
    boolean columnMapping = DeltaSchemas.usesColumnMapping(tableProperties);
    Schema typed = SchemaParser.fromJson(DeltaSchemas.toIcebergJson(deltaSchemaJson, tableProperties));
    JsonNode delta;
    try {
      delta = JSON.readTree(deltaSchemaJson);
    } catch (IOException e) {
      throw new IllegalArgumentException("the Delta schema is not JSON", e);
    }
    StableSchema ids = new StableSchema(columnMapping, previousCapture);
    List<MappedField> mapped = new ArrayList<>();
    Types.StructType struct =
        ids.struct(typed.asStruct(), delta, List.of(), mapped, true);
    return new Mapped(
        new Schema(struct.fields()),
        NameMapping.of(mapped),
        ids.lastColumnId,
        ids.physicalPaths,
        ids.renumbered);
  }

  /** Delta's nested ids of the column being walked, keyed by its physical name and suffixes. */
  private record NestedIds(JsonNode ids, String key) {
    NestedIds down(String suffix) {
      return new NestedIds(ids, key + "." + suffix);
    }

    JsonNode id() {
      return ids.path(key);
    }
  }

  private Types.StructType struct(
      Types.StructType typed,
      JsonNode delta,
      List<String> path,
      List<MappedField> mapped,
      boolean outsideCollections) {
    List<Types.NestedField> fields = new ArrayList<>();
    JsonNode deltaFields = delta.path("fields");
    for (int i = 0; i < typed.fields().size(); i++) {
      Types.NestedField field = typed.fields().get(i);
      JsonNode deltaField = deltaFields.get(i);
      JsonNode metadata = deltaField.path("metadata");
      String physical = metadata.path(DeltaSchemas.PHYSICAL_NAME).asText(field.name());
      List<String> fieldPath = append(path, physical);
      int id = id(fieldPath, metadata.path(DeltaSchemas.COLUMN_MAPPING_ID));
      if (outsideCollections) {
        physicalPaths.put(id, fieldPath);
      }
      List<MappedField> nested = new ArrayList<>();
      Type type =
          type(
              field.type(),
              deltaField.get("type"),
              fieldPath,
              new NestedIds(metadata.path(DeltaSchemas.NESTED_IDS), physical),
              nested,
              outsideCollections);
      mapped.add(MappedField.of(id, physical, nested.isEmpty() ? null : MappedFields.of(nested)));
      fields.add(
          Types.NestedField.builder()
              .withId(id)
              .withName(field.name())
              .isOptional(field.isOptional())
              .ofType(type)
              .withDoc(field.doc())
              .build());
    }
    return Types.StructType.of(fields);
  }

  private Type type(
      Type typed,
      JsonNode delta,
      List<String> path,
      NestedIds nestedIds,
      List<MappedField> mapped,
      boolean outsideCollections) {
    if (typed.isPrimitiveType()) {
      return typed;
    }
    return switch (typed.typeId()) {
      case STRUCT ->
          struct(typed.asStructType(), delta, path, mapped, outsideCollections);
      case LIST -> {
        Types.ListType list = typed.asListType();
        NestedIds elementIds = nestedIds.down("element");
        List<String> elementPath = append(path, "element");
        int id = id(elementPath, elementIds.id());
        List<MappedField> nested = new ArrayList<>();
        Type element =
            type(list.elementType(), delta.get("elementType"), elementPath, elementIds, nested, false);
        mapped.add(MappedField.of(id, "element", nested.isEmpty() ? null : MappedFields.of(nested)));
        yield list.isElementOptional()
            ? Types.ListType.ofOptional(id, element)
            : Types.ListType.ofRequired(id, element);
      }
      case MAP -> {
        Types.MapType map = typed.asMapType();
        NestedIds keyIds = nestedIds.down("key");
        NestedIds valueIds = nestedIds.down("value");
        List<String> keyPath = append(path, "key");
        List<String> valuePath = append(path, "value");
        int keyId = id(keyPath, keyIds.id());
        int valueId = id(valuePath, valueIds.id());
        List<MappedField> keyNested = new ArrayList<>();
        List<MappedField> valueNested = new ArrayList<>();
        Type key = type(map.keyType(), delta.get("keyType"), keyPath, keyIds, keyNested, false);
        Type value =
            type(map.valueType(), delta.get("valueType"), valuePath, valueIds, valueNested, false);
        mapped.add(MappedField.of(keyId, "key", keyNested.isEmpty() ? null : MappedFields.of(keyNested)));
        mapped.add(
            MappedField.of(valueId, "value", valueNested.isEmpty() ? null : MappedFields.of(valueNested)));
        yield map.isValueOptional()
            ? Types.MapType.ofOptional(keyId, valueId, key, value)
            : Types.MapType.ofRequired(keyId, valueId, key, value);
      }
      default -> throw new IllegalStateException("not a nested type: " + typed);
    };
  }

  /** The rules of the class comment, in order. */
  private int id(List<String> path, JsonNode deltaId) {
    int id;
    MappedField before = previous.find(path);
    if (columnMapping && deltaId.canConvertToInt()) {
      id = deltaId.asInt();
      renumbered |= before != null && before.id() != null && before.id() != id;
    } else {
      id = before != null && before.id() != null ? before.id() : nextId++;
    }
    lastColumnId = Math.max(lastColumnId, id);
    return id;
  }

  private static List<String> append(List<String> path, String name) {
    List<String> out = new ArrayList<>(path.size() + 1);
    out.addAll(path);
    out.add(name);
    return out;
  }
}
