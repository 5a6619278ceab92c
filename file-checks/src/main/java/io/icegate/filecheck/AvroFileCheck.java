package io.icegate.filecheck;

import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.avro.AvroSchemaUtil;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.mapping.NameMapping;

/**
 * Checks one Avro data or delete file by its container structure (Avro specification "Object
 * Container Files"): the header's magic, metadata and codec; the header's schema, whose columns
 * must map by field id (or the table's name mapping) to compatible table columns, as for Parquet;
 * then every block's row count
 * and size, seeking past the block's bytes to its sync marker, which must be the file's. Block
 * contents are neither read into memory nor decoded: the row count of an Avro file is only known
 * from its block headers, and seeking past each block keeps the read to headers and markers where
 * the store serves ranges.
 */
final class AvroFileCheck {

  private static final byte[] MAGIC = {'O', 'b', 'j', 1};
  private static final int SYNC_SIZE = 16;

  /** A metadata key or value longer than this is corruption, not an Avro header. */
  private static final int MAX_METADATA_ENTRY = 1 << 20;

  private AvroFileCheck() {}

  /**
   * @param input the file, whose length is already known to equal the manifest's
   * @return a sentence saying what is wrong, or empty when the file conforms
   */
  static Optional<String> problem(
      ContentFile<?> file, InputFile input, long length, TableColumns columns) {
    try (SeekableInputStream in = input.newStream()) {
      // A direct decoder does not read ahead, so the stream's position is the decoder's.
      BinaryDecoder decoder = DecoderFactory.get().directBinaryDecoder(in, null);
      byte[] magic = new byte[MAGIC.length];
      decoder.readFixed(magic);
      if (!Arrays.equals(MAGIC, magic)) {
        return Optional.of("the file is not an Avro container file (wrong magic bytes)");
      }
      Map<String, byte[]> metadata = readMetadata(decoder);
      byte[] schemaJson = metadata.get("avro.schema");
      if (schemaJson == null) {
        return Optional.of("the Avro header has no schema");
      }
      Schema schema = new Schema.Parser().parse(new String(schemaJson, StandardCharsets.UTF_8));
      byte[] codec = metadata.get("avro.codec");
      if (codec != null) {
        CodecFactory.fromString(new String(codec, StandardCharsets.UTF_8));
      }
      byte[] sync = new byte[SYNC_SIZE];
      decoder.readFixed(sync);
      Optional<String> nonConforming = nonConforming(schema, columns);
      if (nonConforming.isPresent()) {
        return nonConforming;
      }

      long rows = 0;
      byte[] blockSync = new byte[SYNC_SIZE];
      while (in.getPos() < length) {
        long blockStart = in.getPos();
        long count = decoder.readLong();
        long size = decoder.readLong();
        if (count < 0 || size < 0) {
          return Optional.of("the Avro block at offset " + blockStart + " has a negative size");
        }
        long syncAt = in.getPos() + size;
        if (syncAt + SYNC_SIZE > length) {
          return Optional.of(
              "the Avro block at offset " + blockStart + " runs past the end of the file");
        }
        in.seek(syncAt);
        decoder.readFixed(blockSync);
        if (!Arrays.equals(sync, blockSync)) {
          return Optional.of(
              "the Avro block at offset "
                  + blockStart
                  + " does not end with the file's sync marker (corrupt block)");
        }
        rows += count;
      }
      if (rows != file.recordCount()) {
        return Optional.of(DataFileCheck.rowCountMismatch(rows, file.recordCount()));
      }
      return Optional.empty();
    } catch (EOFException e) {
      return Optional.of("the Avro file ends in the middle of its header or a block (truncated)");
    } catch (IOException | RuntimeException e) {
      return Optional.of("the file is not a readable Avro file: " + DataFileCheck.reason(e));
    }
  }

  /**
   * The first column of the file's Avro schema the table cannot read: ids from the schema's
   * {@code field-id}, {@code element-id}, {@code key-id} and {@code value-id} properties (Iceberg
   * spec "Avro"), or from the table's name mapping when the schema has none; types as Iceberg
   * converts them.
   */
  private static Optional<String> nonConforming(Schema schema, TableColumns columns) {
    Set<Integer> carried = new HashSet<>();
    collectIds(schema, carried, new HashSet<>());
    if (carried.isEmpty()) {
      Optional<NameMapping> mapping = columns.nameMapping();
      if (mapping.isEmpty()) {
        return Optional.of(TableColumns.NO_IDS_NO_MAPPING);
      }
      schema = AvroSchemaUtil.applyNameMapping(schema, mapping.get());
      collectIds(schema, carried, new HashSet<>());
    }
    Optional<String> unmapped = fieldWithoutId(schema, "", new HashSet<>());
    if (unmapped.isPresent()) {
      return unmapped;
    }
    Schema mapped = schema;
    return columns.nonConforming(() -> AvroSchemaUtil.toIceberg(mapped), carried);
  }

  private static void collectIds(Schema schema, Set<Integer> ids, Set<String> recordsSeen) {
    switch (schema.getType()) {
      case RECORD -> {
        if (!recordsSeen.add(schema.getFullName())) {
          return; // a recursive record; Iceberg's conversion rejects it later
        }
        for (Schema.Field field : schema.getFields()) {
          addId(field.getObjectProp(AvroSchemaUtil.FIELD_ID_PROP), ids);
          collectIds(field.schema(), ids, recordsSeen);
        }
      }
      case ARRAY -> {
        addId(schema.getObjectProp(AvroSchemaUtil.ELEMENT_ID_PROP), ids);
        collectIds(schema.getElementType(), ids, recordsSeen);
      }
      case MAP -> {
        addId(schema.getObjectProp(AvroSchemaUtil.KEY_ID_PROP), ids);
        addId(schema.getObjectProp(AvroSchemaUtil.VALUE_ID_PROP), ids);
        collectIds(schema.getValueType(), ids, recordsSeen);
      }
      case UNION -> schema.getTypes().forEach(option -> collectIds(option, ids, recordsSeen));
      default -> {}
    }
  }

  private static void addId(Object id, Set<Integer> ids) {
    if (id instanceof Number number) {
      ids.add(number.intValue());
    } else if (id != null) {
      ids.add(Integer.parseInt(id.toString()));
    }
  }

  private static Optional<String> fieldWithoutId(
      Schema schema, String prefix, Set<String> recordsSeen) {
    switch (schema.getType()) {
      case RECORD -> {
        if (!recordsSeen.add(schema.getFullName())) {
          return Optional.empty();
        }
        for (Schema.Field field : schema.getFields()) {
          String name = prefix + field.name();
          if (field.getObjectProp(AvroSchemaUtil.FIELD_ID_PROP) == null) {
            return Optional.of(TableColumns.unmapped(name));
          }
          Optional<String> nested = fieldWithoutId(field.schema(), name + ".", recordsSeen);
          if (nested.isPresent()) {
            return nested;
          }
        }
        return Optional.empty();
      }
      case ARRAY -> {
        return fieldWithoutId(schema.getElementType(), prefix, recordsSeen);
      }
      case MAP -> {
        return fieldWithoutId(schema.getValueType(), prefix, recordsSeen);
      }
      case UNION -> {
        for (Schema option : schema.getTypes()) {
          Optional<String> nested = fieldWithoutId(option, prefix, recordsSeen);
          if (nested.isPresent()) {
            return nested;
          }
        }
        return Optional.empty();
      }
      default -> {
        return Optional.empty();
      }
    }
  }

  private static Map<String, byte[]> readMetadata(BinaryDecoder decoder) throws IOException {
    Map<String, byte[]> metadata = new HashMap<>();
    for (long count = decoder.readLong(); count != 0; count = decoder.readLong()) {
      if (count < 0) {
        count = -count;
        decoder.readLong(); // the block's size in bytes, unused
      }
      for (long i = 0; i < count; i++) {
        String key = new String(readBounded(decoder), StandardCharsets.UTF_8);
        metadata.put(key, readBounded(decoder));
      }
    }
    return metadata;
  }

  /** Length-prefixed bytes, refused before allocation when the length is implausible. */
  private static byte[] readBounded(BinaryDecoder decoder) throws IOException {
    long length = decoder.readLong();
    if (length < 0 || length > MAX_METADATA_ENTRY) {
      throw new IOException("implausible Avro header entry length " + length);
    }
    byte[] bytes = new byte[(int) length];
    decoder.readFixed(bytes);
    return bytes;
  }
}
