package io.icegate.access.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CatalogCapabilitiesTest {

  @Test
  void viewsAreAdvertisedOnlyWithBothListingAndLoading() {
    assertThatThrownBy(() -> CatalogCapabilities.of(CatalogCapability.VIEW_LISTING))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CatalogCapabilities.of(CatalogCapability.VIEW_METADATA))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(
            CatalogCapabilities.of(CatalogCapability.VIEW_LISTING, CatalogCapability.VIEW_METADATA)
                .supportsViews())
        .isTrue();
    assertThat(CatalogCapabilities.of(CatalogCapability.TABLES).supportsViews()).isFalse();
  }
}
