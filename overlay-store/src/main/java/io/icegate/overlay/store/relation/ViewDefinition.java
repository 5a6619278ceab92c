package io.icegate.overlay.store.relation;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.view.ImmutableSQLViewRepresentation;
import org.apache.iceberg.view.ImmutableViewVersion;
import org.apache.iceberg.view.ViewMetadata;
import org.apache.iceberg.view.ViewVersion;

/**
 * The stored definition of a managed View (seed 000, "Materialized metadata": every SQL
 * representation, default namespace and properties). Canonical JSON like every {@link
 * RelationDefinition}, so unchanged upstream views digest the same.
 *
 * @param viewUuid the view UUID to serve (the upstream one when it has one)
 * @param location the view's location (views store nothing there; Iceberg requires one)
 * @param schemaJson the output schema, Iceberg schema JSON
 * @param representations every SQL text, one per dialect, in upstream order
 * @param defaultNamespace the namespace unqualified names resolve against; empty for the root
 * @param defaultCatalog the catalog unqualified names resolve against, or {@code null} (seed 000:
 *     a default catalog naming the upstream's own catalog is not carried over)
 * @param properties view properties as upstream reports them
 */
public record ViewDefinition(
    String viewUuid,
    String location,
    String schemaJson,
    List<Representation> representations,
    List<String> defaultNamespace,
    String defaultCatalog,
    Map<String, String> properties) implements RelationDefinition {

  /**
   * One SQL text.
   *
   * @param dialect engine dialect as upstream names it ({@code spark}, {@code trino})
   * @param sql the query text
   */
  public record Representation(String dialect, String sql) {
    public Representation {
      Objects.requireNonNull(dialect, "dialect");
      Objects.requireNonNull(sql, "sql");
    }
  }

  public ViewDefinition {
    Objects.requireNonNull(viewUuid, "viewUuid");
    Objects.requireNonNull(location, "location");
    Objects.requireNonNull(schemaJson, "schemaJson");
    representations = List.copyOf(representations);
    if (representations.isEmpty()) {
      throw new IllegalArgumentException("a view needs at least one SQL representation");
    }
    defaultNamespace = List.copyOf(defaultNamespace == null ? List.of() : defaultNamespace);
    properties = new TreeMap<>(properties == null ? Map.of() : properties);
  }

  /**
   * Reads stored bytes ({@link #toBytes()}).
   *
   * @throws java.io.UncheckedIOException when the bytes are not a definition
   */
  public static ViewDefinition fromBytes(byte[] bytes) {
    return RelationDefinition.fromBytes(bytes, ViewDefinition.class);
  }

  /**
   * The Iceberg view metadata the gateway serves: one version holding every representation.
   *
   * @param versionTimestampMillis the version's timestamp (the managed View's last publication),
   *     so repeated loads of an unchanged View serve identical metadata
   * @throws RuntimeException (Iceberg's exceptions) when the stored JSON is not a valid view; the
   *     reconciler calls this before publishing
   */
  public ViewMetadata toViewMetadata(long versionTimestampMillis) {
    Schema schema = SchemaParser.fromJson(schemaJson);
    ImmutableViewVersion.Builder version = ImmutableViewVersion.builder()
        .versionId(1)
        .schemaId(schema.schemaId())
        .timestampMillis(versionTimestampMillis)
        .defaultNamespace(Namespace.of(defaultNamespace.toArray(String[]::new)))
        .defaultCatalog(defaultCatalog)
        .putSummary("operation", "create");
    for (Representation r : representations) {
      version.addRepresentations(
          ImmutableSQLViewRepresentation.builder().dialect(r.dialect()).sql(r.sql()).build());
    }
    ViewVersion built = version.build();
    return ViewMetadata.builder()
        .assignUUID(viewUuid)
        .setLocation(location)
        .setProperties(properties)
        .setCurrentVersion(built, schema)
        .build();
  }
}
