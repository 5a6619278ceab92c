package io.icegate.access.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class StorageLocationsTest {

  @Test
  void matchIsTextualLikeS3FileIo() {
    // S3FileIO picks storage credentials by plain string prefix; so do we.
    assertThat(StorageLocations.covers("s3://bucket/tab", "s3://bucket/table1/metadata/x.json"))
        .isTrue();
    assertThat(StorageLocations.covers("s3://bucket/table1/", "s3://bucket/table1/data")).isTrue();
    assertThat(StorageLocations.covers("s3://other/", "s3://bucket/table1")).isFalse();
  }

  @Test
  void longestCoveringPrefixWins() {
    assertThat(
            StorageLocations.longestCovering(
                List.of("s3://b/", "s3://b/db/t", "s3://b/db/u"), "s3://b/db/t/metadata"))
        .contains("s3://b/db/t");
    assertThat(StorageLocations.longestCovering(List.of("s3://x/"), "s3://b/db")).isEmpty();
  }
}
