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

  /** A path keeps its key as written: what URI parsing would decode or refuse is itself. */
  @Test
  void aPathIsTakenAsWritten() {
    S3Location odd = S3Location.ofPath("S3://lake/my table#1/region=a b%2Fc%25/x?.parquet");
    assertThat(odd.scheme()).isEqualTo("s3");
    assertThat(odd.bucket()).isEqualTo("lake");
    assertThat(odd.key()).isEqualTo("my table#1/region=a b%2Fc%25/x?.parquet");
    assertThat(odd.toString()).isEqualTo("s3://lake/my table#1/region=a b%2Fc%25/x?.parquet");
    assertThat(S3Location.ofPath("s3a://lake").key()).isEmpty();
    assertThat(S3Location.ofPath("s3://lake/").key()).isEmpty();
    assertThatThrownBy(() -> S3Location.ofPath("gs://lake/t"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'gs'");
    assertThatThrownBy(() -> S3Location.ofPath("/lake/t")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> S3Location.ofPath("s3:///t"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no bucket");
  }
}
