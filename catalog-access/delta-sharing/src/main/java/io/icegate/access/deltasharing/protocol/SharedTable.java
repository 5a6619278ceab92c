package io.icegate.access.deltasharing.protocol;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.icegate.access.model.ExternalIdentity;
import io.icegate.access.model.NamespacePath;
import java.util.List;

/**
 * One item of the protocol's table listings ({@code GET .../schemas/{schema}/tables}).
 *
 * @param name the table's name in its schema
 * @param schema the schema that holds it
 * @param share the share that holds it
 * @param shareId the share's immutable id, or {@code null} (optional in the protocol)
 * @param id the table's id, unique within the share and immutable, or {@code null} (optional)
 * @param location the table root where its {@code _delta_log} lives, or {@code null}
 * @param accessModes {@code url} and/or {@code dir}; {@code null} when the server omits the field
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record SharedTable(
    String name,
    String schema,
    String share,
    String shareId,
    String id,
    String location,
    List<String> accessModes) {

  /**
   * The table's identity: {@code shareId U+001F id} (the share's name when it has no id), or its
   * path when the server gives no table id.
   */
  public ExternalIdentity identity(NamespacePath namespace, String name) {
    if (id == null || id.isBlank()) {
      return ExternalIdentity.fromPath(namespace, name);
    }
    String owner = shareId == null || shareId.isBlank() ? namespace.segments().get(0) : shareId;
    return ExternalIdentity.stable(owner + "\u001f" + id);
  }
}
