package io.icegate.overlay.filecheck;

import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * Checks one Avro data or delete file by its container structure (Avro specification "Object
 * Container Files"): the header's magic, metadata, schema and codec; then every block's row count
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
  static Optional<String> problem(ContentFile<?> file, InputFile input, long length) {
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
      new Schema.Parser().parse(new String(schemaJson, StandardCharsets.UTF_8));
      byte[] codec = metadata.get("avro.codec");
      if (codec != null) {
        CodecFactory.fromString(new String(codec, StandardCharsets.UTF_8));
      }
      byte[] sync = new byte[SYNC_SIZE];
      decoder.readFixed(sync);

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
