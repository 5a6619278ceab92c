package io.icegate.access.deltasharing;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.access.deltasharing.protocol.MetadataResponse;
import io.icegate.access.deltasharing.protocol.SharedTable;
import org.junit.jupiter.api.Test;

/**
 * The commit identity of a shared table's served version ({@link
 * SharedTableRequests.Loaded#commitIdentity}), from what {@code /metadata} states: what tells a
 * table written anew up to the same version from the one captured.
 */
class SharedCommitIdentityTest {

  private static final SharedTable ENTRY =
      new SharedTable("t", "s", "sh", null, "id-t", null, null);

  private static SharedTableRequests.Loaded loaded(String metaData, long version) {
    String body =
        "{\"protocol\":{\"minReaderVersion\":1}}\n{\"metaData\":{"
            + metaData
            + "\"format\":{\"provider\":\"parquet\"},\"schemaString\":"
            + "\"{\\\"type\\\":\\\"struct\\\",\\\"fields\\\":[]}\",\"partitionColumns\":[]}}\n";
    return new SharedTableRequests.Loaded(
        ENTRY, MetadataResponse.parse("table metadata of sh.s.t", body), version);
  }

  @Test
  void theDeltaTableIdAndVersionAndWhatTheServerStatesOfTheTableAtIt() {
    assertThat(loaded("\"id\":\"f8d5c169\",", 7).commitIdentity()).isEqualTo("f8d5c169/7");
    assertThat(loaded("\"id\":\"f8d5c169\",\"size\":123456,\"numFiles\":5,", 7).commitIdentity())
        .isEqualTo("f8d5c169/7/size=123456/files=5");
    assertThat(loaded("\"id\":\"a0e4b2d7\",", 7).commitIdentity())
        .isNotEqualTo(loaded("\"id\":\"f8d5c169\",", 7).commitIdentity());
  }

  /** The id is required; a server leaving it out gives no identity (the name is all there is). */
  @Test
  void noDeltaTableIdNoIdentity() {
    assertThat(loaded("", 7).commitIdentity()).isNull();
    assertThat(loaded("\"id\":\" \",", 7).commitIdentity()).isNull();
  }
}
