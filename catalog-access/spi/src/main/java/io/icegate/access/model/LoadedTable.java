package io.icegate.access.model;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * One upstream table load seen two ways: the provider-neutral table that materialization needs,
 * and, for a provider that has it, the full Iceberg metadata that capture needs, both from the same
 * upstream response (so the metadata location of one is that of the other).
 *
 * <p>The full metadata is rendered on each {@link #metadata()} call, not when the table is loaded:
 * a caller that never captures pays nothing for it. Until this object is dropped it may keep the
 * provider's parsed metadata reachable, so hold what {@link #metadata()} returns, not this.
 *
 * @param table the provider-neutral table
 * @param fullMetadata renders the full metadata of the same load; {@code null} when the provider
 *     has none to give (Delta providers)
 */
public record LoadedTable(UpstreamTable table, Supplier<UpstreamTableMetadata> fullMetadata) {

  public LoadedTable {
    Objects.requireNonNull(table, "table");
  }

  /** A load from a provider without Iceberg metadata to capture. */
  public static LoadedTable withoutMetadata(UpstreamTable table) {
    return new LoadedTable(table, null);
  }

  /**
   * The full Iceberg metadata of this load (its location is {@link UpstreamTable#metadataLocation()
   * table().metadataLocation()}), rendered now; empty when the provider has none.
   */
  public Optional<UpstreamTableMetadata> metadata() {
    return fullMetadata == null ? Optional.empty() : Optional.of(fullMetadata.get());
  }
}
