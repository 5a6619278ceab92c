package io.icegate.access.delta.iceberg;

import io.delta.kernel.internal.deletionvectors.Base85Codec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.roaringbitmap.RoaringBitmap;

/**
 * Delta log edits written by hand into a local table, for what Kernel's own writer does not
 * produce: commits of literal actions (a file removed and added again with a deletion vector, per
 * the protocol's "Deletion Vector Format", inline or in a file) and a log cleaned up after a
 * checkpoint.
 */
final class HandWrittenCommits {

  private HandWrittenCommits() {}

  /** Writes a commit file of these actions (JSON lines) into the table's log. */
  static void commit(Path table, long version, String... actions) throws IOException {
    Files.writeString(
        table.resolve("_delta_log").resolve(String.format("%020d.json", version)),
        String.join("\n", actions) + "\n");
  }

  static void deleteCommitsBefore(Path table, long version) {
    try (Stream<Path> files = Files.list(table.resolve("_delta_log"))) {
      for (Path file : files.toList()) {
        String name = file.getFileName().toString().replaceFirst("^\\.", "");
        if (name.matches("\\d{20}\\.(json|crc)(\\.crc)?")
            && Long.parseLong(name.substring(0, 20)) < version) {
          Files.delete(file);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * An inline deletion vector (protocol "Deletion Vector Format": storage type {@code i}, the
   * RoaringBitmapArray in its portable serialization, Z85-encoded) marking these row indexes, as
   * the JSON of a {@code deletionVector} field.
   */
  static String inlineVector(int... rows) {
    byte[] data = vectorBytes(rows);
    return descriptor("i", Base85Codec.encodeBytes(data), "", data.length, rows.length);
  }

  /** A {@code deletionVector} field's JSON; {@code offset} is empty or {@code ,"offset":n}. */
  static String descriptor(
      String storageType, String pathOrInlineDv, String offset, int sizeInBytes, int cardinality) {
    return "{\"storageType\":\""
        + storageType
        + "\",\"pathOrInlineDv\":"
        + UnrepresentableFeaturesTest.quote(pathOrInlineDv)
        + offset
        + ",\"sizeInBytes\":"
        + sizeInBytes
        + ",\"cardinality\":"
        + cardinality
        + "}";
  }

  /**
   * A deletion vector stored in a file (protocol "Deletion Vector Format", storage type {@code u}):
   * {@code deletion_vector_<uuid>.bin} in the table directory, a version byte 1, then the vector's
   * size (4 bytes, big-endian), the RoaringBitmapArray as {@link #inlineVector} serializes it and
   * its CRC-32 (big-endian); the descriptor names the file by its Z85-encoded UUID and points at
   * the size.
   */
  static String storedVector(Path table, int... rows) throws IOException {
    byte[] data = vectorBytes(rows);
    java.util.UUID uuid = java.util.UUID.randomUUID();
    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
    crc.update(data);
    ByteBuffer file = ByteBuffer.allocate(1 + 4 + data.length + 4); // big-endian by default
    file.put((byte) 1).putInt(data.length).put(data).putInt((int) crc.getValue());
    Files.write(table.resolve("deletion_vector_" + uuid + ".bin"), file.array());
    return descriptor("u", Base85Codec.encodeUUID(uuid), ",\"offset\":1", data.length, rows.length);
  }

  /** A RoaringBitmapArray of these row indexes in Delta's portable serialization. */
  static byte[] vectorBytes(int... rows) {
    RoaringBitmap bitmap = RoaringBitmap.bitmapOf(rows);
    ByteBuffer bytes =
        ByteBuffer.allocate(4 + 8 + 4 + bitmap.serializedSizeInBytes()).order(ByteOrder.LITTLE_ENDIAN);
    bytes.putInt(1681511377); // portable RoaringBitmapArray magic number
    bytes.putLong(1); // one 32-bit bitmap
    bytes.putInt(0); // its high 32 bits
    bitmap.serialize(bytes);
    return bytes.array();
  }

  static String addWithVector(String path, long size, String stats, String vector) {
    return "{\"add\":{\"path\":"
        + UnrepresentableFeaturesTest.quote(path)
        + ",\"partitionValues\":{\"region\":\"EU\"},\"size\":"
        + size
        + ",\"modificationTime\":1700000000000,\"dataChange\":true,\"stats\":"
        + UnrepresentableFeaturesTest.quote(stats)
        + ",\"deletionVector\":"
        + vector
        + "}}";
  }

  static String remove(String path, long size, String vector) {
    return "{\"remove\":{\"path\":"
        + UnrepresentableFeaturesTest.quote(path)
        + ",\"deletionTimestamp\":1700000000000,\"dataChange\":true,\"extendedFileMetadata\":true,"
        + "\"partitionValues\":{\"region\":\"EU\"},\"size\":"
        + size
        + (vector == null ? "" : ",\"deletionVector\":" + vector)
        + "}}";
  }
}
