package io.icegate.access.deltasharing.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.delta.iceberg.DeltaVersionCapture;
import io.icegate.access.deltasharing.http.SharingTransport;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The {@code /metadata} answer in either of the protocol's response formats, and the capabilities
 * icegate declares to get it.
 *
 * <p>Negotiation (PROTOCOL.md, "Delta Sharing Capabilities Header"): the request carries {@value
 * #HEADER}{@code : }{@value #CAPABILITIES}. A server that knows the header answers in the Delta
 * format and echoes {@code responseformat=delta} in the same response header; one that does not
 * ignores it and answers in the parquet format. Servers refuse tables with column mapping or
 * deletion vectors in the parquet format, so without the header such tables could not be read at
 * all.
 *
 * <p>Reader features declared: those icegate serves correctly ({@link
 * DeltaVersionCapture#SERVABLE_READER_FEATURES}, lower case as the header writes them: {@code
 * columnmapping}, {@code deletionvectors}, ...). Capture reads the table's own log with directory
 * credentials: it maps column mapping ids and applies deletion vectors as position deletes. A
 * table needing any other reader feature is refused by the server (400, naming the table), or,
 * when a server serves it anyway, here ({@code UNSUPPORTED}, naming the table and the feature).
 * So is a table whose answer came in the parquet format although its protocol needs reader
 * features ({@code minReaderVersion} 3): that format cannot state them, so what it offers cannot
 * be checked, and the Delta format was asked for.
 *
 * <p>Shapes: parquet format, a {@code protocol} line ({@code minReaderVersion}) and a {@code
 * metaData} line holding {@link TableMetadata} directly; Delta format, {@code
 * {"protocol":{"deltaProtocol":{...}}}} and {@code {"metaData":{"deltaMetadata":{...},
 * "version":...}}}, where {@code deltaProtocol} and {@code deltaMetadata} are the Delta log's own
 * protocol and metaData actions (no {@code location}, no {@code accessModes}). The table's {@code
 * size} and {@code numFiles}, where stated, are in the parquet format's metaData object and beside
 * {@code deltaMetadata} in the Delta format's.
 */
public final class MetadataResponse {

  /** The request (and response) header of capability negotiation. */
  public static final String HEADER = "delta-sharing-capabilities";

  /** Reader features icegate can honour, lower case as the header writes them. */
  static final Set<String> SUPPORTED_READER_FEATURES =
      DeltaVersionCapture.SERVABLE_READER_FEATURES.stream()
          .map(f -> f.toLowerCase(Locale.ROOT))
          .collect(Collectors.toCollection(TreeSet::new));

  /** What icegate asks for: the Delta response format, with the reader features it serves. */
  public static final String CAPABILITIES =
      "responseformat=delta;readerfeatures=" + String.join(",", SUPPORTED_READER_FEATURES);

  /** Where the parquet format's {@code protocol} line says reader features are needed. */
  private static final int TABLE_FEATURES_READER_VERSION = 3;

  private MetadataResponse() {}

  /**
   * The table's metadata from a {@code /metadata} body in either format.
   *
   * @param operation the request's name, naming the table ({@code "table metadata of a.b.c"})
   * @throws CatalogAccessException {@code UPSTREAM_PROTOCOL_ERROR} without a metaData line with a
   *     schema; {@code UNSUPPORTED} when the Delta protocol needs a reader feature icegate lacks
   */
  public static TableMetadata parse(String operation, String body) {
    TableMetadata metadata = null;
    for (String line : body.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode node = SharingTransport.json(operation, line);
      JsonNode protocol = node.path("protocol").path("deltaProtocol");
      if (protocol.isObject()) {
        checkReaderFeatures(operation, protocol);
      } else if (node.path("protocol").path("minReaderVersion").asInt(1)
          >= TABLE_FEATURES_READER_VERSION) {
        throw new CatalogAccessException(
            Code.UNSUPPORTED,
            operation
                + " was answered in the parquet response format, which cannot state the reader"
                + " features its protocol (minReaderVersion "
                + node.path("protocol").path("minReaderVersion").asInt()
                + ") needs; the Delta format was asked for");
      }
      JsonNode meta = node.path("metaData");
      if (meta.isObject()) {
        JsonNode delta = meta.path("deltaMetadata");
        metadata =
            SharingTransport.bind(operation, delta.isObject() ? delta : meta, TableMetadata.class);
        if (delta.isObject()) {
          metadata = metadata.withTableSize(count(meta.path("size")), count(meta.path("numFiles")));
        }
      }
    }
    if (metadata == null || metadata.schemaString() == null) {
      throw new CatalogAccessException(
          Code.UPSTREAM_PROTOCOL_ERROR, operation + " has no metaData line with a schema");
    }
    return metadata;
  }

  /**
   * A stated whole number (a JSON number or its text, as the parquet format's binding takes it),
   * or {@code null} when absent or not one: the members are optional, so an odd one is ignored.
   */
  private static Long count(JsonNode node) {
    if (node.isIntegralNumber() && node.canConvertToLong()) {
      return node.asLong();
    }
    try {
      return node.isTextual() ? Long.valueOf(node.asText().trim()) : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static void checkReaderFeatures(String operation, JsonNode protocol) {
    JsonNode features = protocol.path("readerFeatures");
    if (!features.isArray()) {
      return;
    }
    List<String> unsupported = new ArrayList<>();
    for (JsonNode feature : features) {
      if (!SUPPORTED_READER_FEATURES.contains(feature.asText().toLowerCase(Locale.ROOT))) {
        unsupported.add(feature.asText());
      }
    }
    if (!unsupported.isEmpty()) {
      throw new CatalogAccessException(
          Code.UNSUPPORTED,
          operation + " needs Delta reader features icegate does not read: " + unsupported);
    }
  }

  /** The request headers of a {@code /metadata} request. */
  public static Map<String, String> requestHeaders() {
    return Map.of(HEADER, CAPABILITIES);
  }
}
