package io.icegate.filecheck;

import java.util.Objects;

/**
 * One reason a table's file cannot be trusted for reading: the first problem found in that file.
 *
 * @param filePath the file's location as the manifest (or manifest list) names it; the table
 *     location when nothing of the table could be read ({@link ValidationFileIO.Refused})
 * @param fileFormat Iceberg's name of the file's format ({@code PARQUET}, {@code ORC}, {@code
 *     AVRO}, {@code PUFFIN}); manifests and manifest lists are {@code AVRO}; empty for a table
 *     location
 * @param message what is wrong, in plain words, for an operator; never carries credentials
 */
public record FileProblem(String filePath, String fileFormat, String message) {

  public FileProblem {
    Objects.requireNonNull(filePath, "filePath");
    Objects.requireNonNull(fileFormat, "fileFormat");
    Objects.requireNonNull(message, "message");
  }
}
