package io.icegate.core.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WarehousePathTest {

  @Test
  void spellingsOfOneLocationHaveOneNormalForm() {
    WarehousePath local = WarehousePath.of("file:/data/w");
    assertThat(WarehousePath.of("file:///data/w")).isEqualTo(local);
    assertThat(WarehousePath.of("file://localhost/data/./w/")).isEqualTo(local);
    assertThat(WarehousePath.of("/data//w")).isEqualTo(local);
    WarehousePath s3 = WarehousePath.of("s3://lake/w");
    assertThat(WarehousePath.of("s3a://lake/w/")).isEqualTo(s3);
    assertThat(WarehousePath.of("S3N://lake//w")).isEqualTo(s3);
    assertThat(s3.toString()).isEqualTo("s3://lake/w");
  }

  @Test
  void aDotDotSegmentOrNoSchemeHasNone() {
    assertThat(WarehousePath.of("s3://lake/w/../v")).isNull();
    assertThat(WarehousePath.of("file:/..")).isNull();
    assertThat(WarehousePath.of("relative/path")).isNull();
  }

  @Test
  void overlapIsEqualityOrContainmentOfWholeSegments() {
    WarehousePath w = WarehousePath.of("s3://b/w");
    assertThat(w.overlaps(WarehousePath.of("s3://b/w"))).isTrue();
    assertThat(w.overlaps(WarehousePath.of("s3://b/w/x"))).isTrue();
    assertThat(w.overlaps(WarehousePath.of("s3://b"))).isTrue();
    assertThat(w.overlaps(WarehousePath.of("s3://b/wx"))).isFalse();
    assertThat(w.overlaps(WarehousePath.of("s3://bx/w"))).isFalse();
    assertThat(w.overlaps(WarehousePath.of("file://b/w"))).isFalse();
    assertThat(WarehousePath.of("s3://b/w/x").within(w)).isTrue();
    assertThat(w.within(w)).isFalse();
  }
}
