package io.icegate.access.deltasharing;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.deltasharing.http.SharingTransport;
import io.icegate.access.deltasharing.protocol.MetadataResponse;
import io.icegate.access.deltasharing.protocol.SharedTable;
import io.icegate.access.deltasharing.protocol.TableMetadata;
import io.icegate.access.deltasharing.protocol.TemporaryCredentials;
import io.icegate.access.model.NamespacePath;
import java.util.List;
import java.util.Map;

/**
 * The requests about one shared table, for {@link DeltaSharingClient}: its {@code /metadata} (with
 * the capabilities header, {@link MetadataResponse}) together with its listing entry, and its
 * {@code temporary-table-credentials} after the access-mode rule ({@link AccessModes}), which
 * also give the location of a table whose metadata and listing state none.
 */
final class SharedTableRequests {

  private final SharingTransport transport;
  private final SharingSettings settings;

  SharedTableRequests(SharingTransport transport, SharingSettings settings) {
    this.transport = transport;
    this.settings = settings;
  }

  /** A table's {@code /metadata} answer, its listing entry and the version it serves. */
  record Loaded(SharedTable entry, TableMetadata metadata, long version) {
    /** The metadata's modes when stated there, else the listing's, else {@code null}. */
    List<String> accessModes() {
      return metadata.accessModes() != null ? metadata.accessModes() : entry.accessModes();
    }

    /** The location metadata or listing states, or {@code null} (the reference server's way). */
    String statedLocation() {
      return metadata.location() != null ? metadata.location() : entry.location();
    }

    /**
     * The identity of the commit the share serves, from what {@code /metadata} states of it: the
     * Delta table id ({@code metaData.id}, the log's own, which a table deleted and created anew
     * at its path does not keep), the version ({@code Delta-Table-Version}) and, where stated, the
     * table's {@code size} and {@code numFiles} at that version, e.g. {@code
     * f8d5c169-.../7/size=123456/files=5}. The commit file's name says only the version, which a
     * table written anew up to it reuses; this is what a reconcile compares instead ({@code
     * DeltaLog.COMMIT_IDENTITY_PROPERTY}). The protocol states no time of the version here, and the
     * Delta format's {@code createdTime} is the metadata's, fixed with the table id. {@code null}
     * when the server states no table id (a required member): then the name is all there is.
     */
    String commitIdentity() {
      if (DeltaSharingClient.blank(metadata.id())) {
        return null;
      }
      StringBuilder identity = new StringBuilder(metadata.id()).append('/').append(version);
      if (metadata.size() != null) {
        identity.append("/size=").append(metadata.size());
      }
      if (metadata.numFiles() != null) {
        identity.append("/files=").append(metadata.numFiles());
      }
      return identity.toString();
    }
  }

  /** {@code /metadata} of the table (capabilities negotiated) and its listing entry. */
  Loaded load(NamespacePath namespace, String name) {
    if (namespace.depth() != 2) {
      throw new CatalogAccessException(
          Code.NOT_FOUND, "Delta Sharing tables live at [share, schema], not " + namespace);
    }
    String operation = "table metadata of " + DeltaSharingClient.display(namespace, name);
    SharingTransport.Response response =
        transport.get(
            operation,
            tablePath(namespace, name) + "/metadata",
            Map.of(),
            MetadataResponse.requestHeaders());
    long version = version(operation, response.header("Delta-Table-Version"));
    TableMetadata metadata = MetadataResponse.parse(operation, response.body());
    SharedTable entry =
        tables(namespace).stream()
            .filter(t -> name.equals(t.name()))
            .findFirst()
            .orElseGet(
                () ->
                    new SharedTable(
                        name,
                        namespace.segments().get(1),
                        namespace.segments().get(0),
                        null,
                        null,
                        null,
                        null));
    return new Loaded(entry, metadata, version);
  }

  /** The tables of {@code [share, schema]}, every page. */
  List<SharedTable> tables(NamespacePath namespace) {
    String operation = "table listing of " + String.join(".", namespace.segments());
    return transport.listAll(
        operation,
        SharingTransport.path(
            "shares",
            namespace.segments().get(0),
            "schemas",
            namespace.segments().get(1),
            "tables"),
        settings.maxResults(),
        item -> {
          SharedTable table = SharingTransport.bind(operation, item, SharedTable.class);
          if (DeltaSharingClient.blank(table.name())) {
            throw new CatalogAccessException(
                Code.UPSTREAM_PROTOCOL_ERROR, operation + " answered an item without a name");
          }
          return table;
        });
  }

  /**
   * The table's version from {@code /metadata}'s header; the protocol's {@code GET .../version}
   * (and its deprecated {@code HEAD} form) would answer the same header, so one request serves
   * both.
   */
  private static long version(String operation, String header) {
    if (header == null) {
      throw new CatalogAccessException(
          Code.UPSTREAM_PROTOCOL_ERROR, operation + " answered no Delta-Table-Version header");
    }
    try {
      return Long.parseLong(header.trim());
    } catch (NumberFormatException e) {
      throw new CatalogAccessException(
          Code.UPSTREAM_PROTOCOL_ERROR, operation + ": Delta-Table-Version is not a number");
    }
  }

  /**
   * The table's location from its temporary credentials, for a server that states none in
   * metadata or listings (the reference server does not).
   *
   * @throws CatalogAccessException {@code UPSTREAM_PROTOCOL_ERROR} naming the missing location when
   *     the credentials state none or cannot be asked for (the table's access modes or the
   *     server's refusal); the cause says why
   */
  String credentialLocation(NamespacePath namespace, String name, Loaded loaded) {
    String display = DeltaSharingClient.display(namespace, name);
    TemporaryCredentials credentials;
    try {
      credentials = temporaryCredentials(namespace, name, loaded);
    } catch (CatalogAccessException e) {
      throw noLocation(display, "its temporary credentials could not be had: " + e.getMessage(), e);
    }
    if (DeltaSharingClient.blank(credentials.location())) {
      throw noLocation(display, "its temporary credentials state none either", null);
    }
    return credentials.location();
  }

  private static CatalogAccessException noLocation(String display, String why, Throwable cause) {
    return new CatalogAccessException(
        Code.UPSTREAM_PROTOCOL_ERROR,
        "Delta Sharing table "
            + display
            + " has no location (TABLE_LOCATION_MISSING): its metadata and listing state none and "
            + why,
        cause);
  }

  /** {@code temporary-table-credentials} of the table, after the access-mode rule. */
  TemporaryCredentials temporaryCredentials(
      NamespacePath namespace, String name, Loaded loaded) {
    String display = DeltaSharingClient.display(namespace, name);
    AccessModes access =
        AccessModes.decide(display, loaded.accessModes(), settings.strictAccessModes());
    String operation = "temporary-table-credentials of " + display;
    JsonNode response;
    try {
      response =
          SharingTransport.json(
              operation,
              transport
                  .post(
                      operation,
                      tablePath(namespace, name) + "/temporary-table-credentials",
                      Map.of())
                  .body());
    } catch (CatalogAccessException e) {
      if (access == AccessModes.UNSTATED && isRefusal(e.code())) {
        throw new CatalogAccessException(
            Code.UNSUPPORTED,
            "Delta Sharing table "
                + display
                + " states no access modes and the server refused its temporary credentials;"
                + " it offers no directory (dir) access",
            e);
      }
      throw e;
    }
    return SharingTransport.bind(operation, response.path("credentials"), TemporaryCredentials.class);
  }

  /** A refusal of the credential request itself, as opposed to a token or transport failure. */
  private static boolean isRefusal(Code code) {
    return code == Code.NOT_FOUND
        || code == Code.UPSTREAM_PROTOCOL_ERROR
        || code == Code.PERMISSION_DENIED;
  }

  private static String tablePath(NamespacePath namespace, String name) {
    return SharingTransport.path(
        "shares",
        namespace.segments().get(0),
        "schemas",
        namespace.segments().get(1),
        "tables",
        name);
  }
}
