package io.icegate.access.deltasharing.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Capability negotiation's two ends in icegate: the header a {@code /metadata} request carries
 * (PROTOCOL.md, "Delta Sharing Capabilities Header": {@code key=v1,v2} pairs separated by {@code
 * ;}) and the check of what came back. The servers' side is the fixture's ({@code
 * DeltaSharingReferenceServerTest}).
 */
class MetadataResponseTest {

  static final String OPERATION = "table metadata of s.ref.t";
  static final String SCHEMA =
      "{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,\"metadata\":{}}]}";

  static String deltaFormat(String readerFeatures) {
    return "{\"protocol\":{\"deltaProtocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,"
        + "\"readerFeatures\":"
        + readerFeatures
        + ",\"writerFeatures\":"
        + readerFeatures
        + "}}}\n"
        + "{\"metaData\":{\"version\":2,\"deltaMetadata\":{\"id\":\"x\",\"format\":{\"provider\":\"parquet\"},"
        + "\"schemaString\":"
        + quote(SCHEMA)
        + ",\"partitionColumns\":[],\"configuration\":{}}}}\n";
  }

  static String quote(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  @Test
  void theRequestAsksForTheDeltaFormatWithTheReaderFeaturesCaptureServes() {
    Map<String, String> headers = MetadataResponse.requestHeaders();
    Map<String, String> capabilities =
        Arrays.stream(headers.get("delta-sharing-capabilities").split(";"))
            .map(c -> c.split("=", 2))
            .collect(Collectors.toMap(kv -> kv[0], kv -> kv[1]));
    assertThat(capabilities).containsEntry("responseformat", "delta");
    assertThat(capabilities.get("readerfeatures").split(","))
        .contains("deletionvectors", "columnmapping")
        .doesNotContain("typewidening");
  }

  @Test
  void theDeltaFormatWithServedFeaturesIsRead() {
    TableMetadata metadata =
        MetadataResponse.parse(OPERATION, deltaFormat("[\"columnMapping\",\"deletionVectors\"]"));
    assertThat(metadata.schemaString()).isEqualTo(SCHEMA);
  }

  /**
   * The table's size and file count, optional, stated in the parquet format's metaData object and
   * beside {@code deltaMetadata} in the Delta format's (where the log's own action has none).
   */
  @Test
  void theTableSizeAndFileCountAreReadInEitherFormat() {
    TableMetadata delta =
        MetadataResponse.parse(
            OPERATION,
            deltaFormat("[]").replace("{\"version\":2,", "{\"version\":2,\"size\":4096,\"numFiles\":3,"));
    assertThat(delta.id()).isEqualTo("x");
    assertThat(delta.size()).isEqualTo(4096L);
    assertThat(delta.numFiles()).isEqualTo(3L);
    String parquet =
        "{\"protocol\":{\"minReaderVersion\":1}}\n"
            + "{\"metaData\":{\"id\":\"y\",\"format\":{\"provider\":\"parquet\"},\"schemaString\":"
            + quote(SCHEMA)
            + ",\"partitionColumns\":[],\"size\":123456,\"numFiles\":5}}\n";
    TableMetadata stated = MetadataResponse.parse(OPERATION, parquet);
    assertThat(stated.size()).isEqualTo(123456L);
    assertThat(stated.numFiles()).isEqualTo(5L);
    TableMetadata silent = MetadataResponse.parse(OPERATION, deltaFormat("[]"));
    assertThat(silent.size()).isNull();
    assertThat(silent.numFiles()).isNull();
  }

  @Test
  void aFeatureCaptureCannotServeIsRefusedNamingTableAndFeature() {
    assertThatThrownBy(
            () ->
                MetadataResponse.parse(
                    OPERATION, deltaFormat("[\"deletionVectors\",\"typeWidening\"]")))
        .isInstanceOfSatisfying(
            CatalogAccessException.class, e -> assertThat(e.code()).isEqualTo(Code.UNSUPPORTED))
        .hasMessageContaining("s.ref.t")
        .hasMessageContaining("typeWidening")
        .hasMessageNotContaining("deletionVectors");
  }

  @Test
  void theParquetFormatForATableNeedingReaderFeaturesIsRefusedByName() {
    String parquet =
        "{\"protocol\":{\"minReaderVersion\":3}}\n"
            + "{\"metaData\":{\"id\":\"x\",\"format\":{\"provider\":\"parquet\"},\"schemaString\":"
            + quote(SCHEMA)
            + ",\"partitionColumns\":[],\"configuration\":{}}}\n";
    assertThatThrownBy(() -> MetadataResponse.parse(OPERATION, parquet))
        .isInstanceOfSatisfying(
            CatalogAccessException.class, e -> assertThat(e.code()).isEqualTo(Code.UNSUPPORTED))
        .hasMessageContaining("s.ref.t")
        .hasMessageContaining("parquet response format");
    // the parquet format of a table without table features stays readable
    assertThat(MetadataResponse.parse(OPERATION, parquet.replace(":3}", ":1}")).schemaString())
        .isEqualTo(SCHEMA);
  }
}
