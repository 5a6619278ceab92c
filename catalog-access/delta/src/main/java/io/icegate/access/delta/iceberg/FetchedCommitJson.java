package io.icegate.access.delta.iceberg;

import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.JsonHandler;
import io.delta.kernel.expressions.Predicate;
import io.delta.kernel.internal.util.Utils;
import io.delta.kernel.internal.util.VectorUtils;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * A Kernel JSON handler that has one commit file's bytes already ({@link NextCommitProbe}, which
 * read it whole): reading that file parses them, line by line as Kernel's default handler reads a
 * file, through the handler's own {@link JsonHandler#parseJson}; every other file is read by the
 * handler. Kernel may read a commit more than once (its actions, then its timestamp): each read is
 * served from the same bytes.
 */
final class FetchedCommitJson implements JsonHandler {

  /** Lines per batch, as Kernel's default JSON reader batches a file. */
  static final int BATCH_LINES = 1024;

  private final JsonHandler json;
  private final String path;
  private final byte[] content;

  FetchedCommitJson(JsonHandler json, String path, byte[] content) {
    this.json = json;
    this.path = path;
    this.content = content;
  }

  @Override
  public ColumnarBatch parseJson(
      ColumnVector jsonStringVector, StructType outputSchema, Optional<ColumnVector> selection) {
    return json.parseJson(jsonStringVector, outputSchema, selection);
  }

  @Override
  public void writeJsonFileAtomically(
      String filePath, CloseableIterator<Row> data, boolean overwrite) throws IOException {
    json.writeJsonFileAtomically(filePath, data, overwrite);
  }

  @Override
  public CloseableIterator<ColumnarBatch> readJsonFiles(
      CloseableIterator<FileStatus> files, StructType schema, Optional<Predicate> predicate)
      throws IOException {
    return new CloseableIterator<>() {
      private CloseableIterator<ColumnarBatch> current = Utils.toCloseableIterator(List.<ColumnarBatch>of().iterator());

      @Override
      public boolean hasNext() {
        while (!current.hasNext()) {
          if (!files.hasNext()) {
            return false;
          }
          FileStatus file = files.next();
          closeCurrent();
          current = file.getPath().equals(path) ? parsed(schema) : read(file, schema, predicate);
        }
        return true;
      }

      @Override
      public ColumnarBatch next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return current.next();
      }

      @Override
      public void close() throws IOException {
        Utils.closeCloseables(current, files);
      }

      private void closeCurrent() {
        try {
          current.close();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    };
  }

  private CloseableIterator<ColumnarBatch> read(
      FileStatus file, StructType schema, Optional<Predicate> predicate) {
    try {
      return json.readJsonFiles(
          Utils.toCloseableIterator(List.of(file).iterator()), schema, predicate);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The commit's lines as batches, split where {@link BufferedReader} splits a file's lines. */
  private CloseableIterator<ColumnarBatch> parsed(StructType schema) {
    List<String> lines = new ArrayList<>();
    try (BufferedReader reader =
        new BufferedReader(
            new InputStreamReader(new ByteArrayInputStream(content), StandardCharsets.UTF_8))) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        lines.add(line);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail to read
    }
    List<ColumnarBatch> batches = new ArrayList<>();
    for (int from = 0; from < lines.size(); from += BATCH_LINES) {
      List<String> batch = lines.subList(from, Math.min(lines.size(), from + BATCH_LINES));
      batches.add(
          json.parseJson(
              VectorUtils.buildColumnVector(batch, StringType.STRING), schema, Optional.empty()));
    }
    return Utils.toCloseableIterator(batches.iterator());
  }
}
