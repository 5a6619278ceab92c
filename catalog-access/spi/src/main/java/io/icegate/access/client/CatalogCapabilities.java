package io.icegate.access.client;

import java.util.EnumSet;
import java.util.Set;

/**
 * What a provider offers. Views are all or nothing: a provider that can list views but not load
 * them (or the reverse) does not advertise views at all, because discovery would offer objects
 * capture could not read (seed 000 "Catalog access boundary").
 *
 * @param capabilities the offered capabilities
 * @throws IllegalArgumentException when exactly one of the two view capabilities is present
 */
public record CatalogCapabilities(Set<CatalogCapability> capabilities) {

  public CatalogCapabilities {
    capabilities = capabilities.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(capabilities));
    boolean lists = capabilities.contains(CatalogCapability.VIEW_LISTING);
    boolean loads = capabilities.contains(CatalogCapability.VIEW_METADATA);
    if (lists != loads) {
      throw new IllegalArgumentException(
          "a provider advertises views only when it both lists and loads them");
    }
  }

  public static CatalogCapabilities of(CatalogCapability... capabilities) {
    return new CatalogCapabilities(Set.of(capabilities));
  }

  public boolean supports(CatalogCapability capability) {
    return capabilities.contains(capability);
  }

  /** Views are listed and loaded. */
  public boolean supportsViews() {
    return supports(CatalogCapability.VIEW_LISTING);
  }
}
