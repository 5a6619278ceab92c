package io.icegate.overlay.generated;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.TableMetadata;

/**
 * A Delta version that cannot be served correctly as Iceberg (issue 26, "What cannot be
 * represented": a reader feature such as catalog-managed commits, data files outside the table
 * location) is still captured, as its previous capture (or the Table's definition) marked with
 * the feature and the commit file that brought it. Validation reads the mark and publishes it as
 * the capture's one error, so the table is hidden and the record names both; a later version
 * without the feature is captured on top of the last capture before the mark.
 */
public final class DeltaRefusal {
  /** Table property: the Delta feature that cannot be served. */
  public static final String FEATURE = "icegate.delta.unrepresentable-feature";
  /** Table property: the commit file of the refused version. */
  public static final String COMMIT_FILE = "icegate.delta.unrepresentable-commit";
  /** Table property: why, for a person. */
  public static final String REASON = "icegate.delta.unrepresentable-reason";

  /** What a refused capture says. */
  public record Refusal(String feature, String commitFile, String reason) {}

  private DeltaRefusal() {}

  /** {@code base} marked as refused. */
  public static TableMetadata refused(TableMetadata base, String feature, String commitFile,
      String reason) {
    return TableMetadata.buildFrom(base)
        .setProperties(Map.of(FEATURE, feature, COMMIT_FILE, commitFile, REASON, reason))
        .build();
  }

  /** The refusal {@code metadata} carries, if any. */
  public static Optional<Refusal> of(TableMetadata metadata) {
    String feature = metadata.property(FEATURE, null);
    if (feature == null) {
      return Optional.empty();
    }
    return Optional.of(new Refusal(feature, metadata.property(COMMIT_FILE, null),
        metadata.property(REASON, feature)));
  }

  /** {@code metadata} without its refusal mark. */
  public static TableMetadata cleared(TableMetadata metadata) {
    return TableMetadata.buildFrom(metadata)
        .removeProperties(Set.of(FEATURE, COMMIT_FILE, REASON))
        .build();
  }
}
