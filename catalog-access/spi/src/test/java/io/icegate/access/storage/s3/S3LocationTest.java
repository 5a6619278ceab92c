package io.icegate.access.storage.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class S3LocationTest {

  @Test
  void splitsBucketAndKeyAndKeepsTheScheme() {
    S3Location location = S3Location.parse("S3A://lake/t/_delta_log/00000000000000000003.json");
    assertThat(location.scheme()).isEqualTo("s3a");
    assertThat(location.bucket()).isEqualTo("lake");
    assertThat(location.key()).isEqualTo("t/_delta_log/00000000000000000003.json");
    assertThat(location.withKey("t/_delta_log/_last_checkpoint"))
        .isEqualTo("s3a://lake/t/_delta_log/_last_checkpoint");
    assertThat(S3Location.parse("s3://lake").key()).isEmpty();
    assertThat(S3Location.parse("s3n://lake/").toString()).isEqualTo("s3n://lake/");
  }

  @Test
  void otherSchemesAndBucketlessLocationsAreRefused() {
    assertThatThrownBy(() -> S3Location.parse("gs://lake/t"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'gs'");
    assertThatThrownBy(() -> S3Location.parse("file:/tmp/t"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> S3Location.parse("s3:///t"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no bucket");
  }
}
