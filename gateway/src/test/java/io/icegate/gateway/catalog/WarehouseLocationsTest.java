package io.icegate.gateway.catalog;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.iceberg.exceptions.BadRequestException;
import org.junit.jupiter.api.Test;

class WarehouseLocationsTest {

  @Test
  void aLocationMustLieInsideTheWarehouseBySegments() {
    WarehouseLocations locations = new WarehouseLocations("s3://b/w");
    assertThatCode(() -> locations.requireInside("table location", "s3://b/w/t"))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> locations.requireInside("table location", "s3://b/wx/t"))
        .isInstanceOf(BadRequestException.class);
  }

  /**
   * A warehouse stored with a '..' segment (before creates refused one) has no normalized form; it
   * used to confine nothing, so its Catalog could register any table anywhere.
   */
  @Test
  void aWarehouseWithAParentSegmentConfinesToNothing() {
    WarehouseLocations locations = new WarehouseLocations("s3://b/mine/..");
    assertThatThrownBy(() -> locations.requireInside("metadata location",
        "s3://victim/lake/t/metadata/v1.metadata.json"))
        .isInstanceOf(BadRequestException.class);
  }
}
