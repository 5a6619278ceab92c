package io.icegate.access.unity.delta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Reads the current schema of a Delta table straight from its transaction log on S3 ({@code
 * <location>/_delta_log/}), following the Delta transaction log protocol: commits are {@code
 * NNNNNNNNNNNNNNNNNNNN.json} files of one JSON action per line, and the newest {@code metaData}
 * action carries the table's {@code schemaString} and {@code partitionColumns}.
 *
 * <p>Not Delta Kernel: Kernel's default engine reads through Hadoop's FileSystem (S3A would bring
 * hadoop-aws and a second AWS SDK), and a Kernel engine of our own would mean implementing its
 * columnar JSON and Parquet handlers. What this provider needs is one action, so it walks the JSON
 * commits newest first. The one thing it cannot do is read a Parquet checkpoint: when the log was
 * cleaned up so that the newest {@code metaData} survives only inside a checkpoint, it reports
 * {@link UnreadableLogException} and the caller falls back to Unity's column list.
 *
 * <p>Uses whatever {@link S3Client} it is given; the provider gives it one holding exactly the
 * vended credentials.
 */
public final class DeltaLog {

  /** Commits examined before giving up; bounds the cost of a table with a long metadata-free run. */
  public static final int MAX_COMMITS = 1_000;

  private static final Pattern COMMIT = Pattern.compile(".*/_delta_log/(\\d{20})\\.json");
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The log could be listed or read but yields no schema (empty, gap, checkpoint-only). */
  public static final class UnreadableLogException extends RuntimeException {
    UnreadableLogException(String message) {
      super(message);
    }
  }

  /**
   * What the log says now.
   *
   * @param version the newest commit version
   * @param commitLocation the newest commit file, e.g. {@code s3://b/t/_delta_log/000...3.json}
   * @param schemaString the newest {@code metaData.schemaString}
   * @param partitionColumns that action's {@code partitionColumns}, in order; empty when
   *     unpartitioned
   */
  public record Head(
      long version, String commitLocation, String schemaString, List<String> partitionColumns) {

    public Head {
      partitionColumns = List.copyOf(partitionColumns);
    }
  }

  /** The parts of a {@code metaData} action this class reads. */
  private record Metadata(String schemaString, List<String> partitionColumns) {}

  private final S3Client s3;
  private final String bucket;
  private final String logPrefix;
  private final String scheme;

  /**
   * @param tableLocation {@code s3://bucket/path} (also {@code s3a}, {@code s3n})
   * @throws IllegalArgumentException for another scheme
   */
  public DeltaLog(S3Client s3, String tableLocation) {
    URI uri = URI.create(tableLocation);
    String s = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!s.equals("s3") && !s.equals("s3a") && !s.equals("s3n")) {
      throw new IllegalArgumentException("storage location scheme '" + s + "' is not S3");
    }
    this.s3 = s3;
    this.scheme = s;
    this.bucket = uri.getHost();
    String path = uri.getPath() == null ? "" : uri.getPath();
    path = path.startsWith("/") ? path.substring(1) : path;
    this.logPrefix = (path.isEmpty() || path.endsWith("/") ? path : path + "/") + "_delta_log/";
  }

  /**
   * Lists the log and reads commits newest first until one holds a {@code metaData} action.
   *
   * @throws UnreadableLogException when no schema can be found in the JSON commits
   * @throws software.amazon.awssdk.core.exception.SdkException when the store refuses or fails
   */
  public Head head() {
    TreeMap<Long, String> commits = commits();
    if (commits.isEmpty()) {
      throw new UnreadableLogException("no Delta commits under " + location(logPrefix));
    }
    long newest = commits.lastKey();
    long expected = newest;
    int read = 0;
    for (Long version : commits.descendingKeySet()) {
      if (version != expected) {
        throw new UnreadableLogException(
            "commit " + expected + " is missing from the log; its metadata is only in a checkpoint");
      }
      if (++read > MAX_COMMITS) {
        throw new UnreadableLogException("no metaData action in the newest " + MAX_COMMITS + " commits");
      }
      Metadata metadata = metadata(commits.get(version));
      if (metadata != null) {
        return new Head(
            newest, location(commits.get(newest)), metadata.schemaString(),
            metadata.partitionColumns());
      }
      expected--;
    }
    throw new UnreadableLogException(
        "no metaData action in the JSON commits; the log starts at a checkpoint");
  }

  /**
   * The newest commit's location after reading it through once: the non-mutating proof that the
   * credentials open the log.
   *
   * @throws UnreadableLogException when the log holds no commit
   */
  public String readNewestCommit() {
    TreeMap<Long, String> commits = commits();
    if (commits.isEmpty()) {
      throw new UnreadableLogException("no Delta commits under " + location(logPrefix));
    }
    String key = commits.lastEntry().getValue();
    try (ResponseInputStream<GetObjectResponse> in = open(key)) {
      in.transferTo(java.io.OutputStream.nullOutputStream());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return location(key);
  }

  private TreeMap<Long, String> commits() {
    TreeMap<Long, String> commits = new TreeMap<>();
    ListObjectsV2Request request =
        ListObjectsV2Request.builder().bucket(bucket).prefix(logPrefix).build();
    for (S3Object object : s3.listObjectsV2Paginator(request).contents()) {
      Matcher m = COMMIT.matcher("/" + object.key());
      if (m.matches()) {
        commits.put(Long.parseLong(m.group(1)), object.key());
      }
    }
    return commits;
  }

  private Metadata metadata(String key) {
    Metadata metadata = null;
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(open(key), StandardCharsets.UTF_8))) {
      for (String line; (line = lines.readLine()) != null; ) {
        if (line.isBlank() || !line.contains("\"metaData\"")) {
          continue;
        }
        JsonNode action = JSON.readTree(line).path("metaData");
        if (action.path("schemaString").isTextual()) {
          List<String> partitionColumns = new ArrayList<>();
          action.path("partitionColumns").forEach(c -> partitionColumns.add(c.asText()));
          // the last one in a commit wins
          metadata = new Metadata(action.path("schemaString").asText(), partitionColumns);
        }
      }
    } catch (IOException e) {
      throw new UnreadableLogException("commit " + location(key) + " is not readable JSON lines");
    }
    return metadata;
  }

  private ResponseInputStream<GetObjectResponse> open(String key) {
    return s3.getObject(GetObjectRequest.builder().bucket(bucket).key(key).build());
  }

  private String location(String key) {
    return scheme + "://" + bucket + "/" + key;
  }
}
