package io.icegate.gateway.iceberg;

import io.icegate.core.auth.TokenRole;
import io.icegate.gateway.catalog.RepositoryCatalog;
import io.icegate.gateway.catalog.TableRead;
import io.icegate.gateway.catalog.TableReads;
import io.icegate.gateway.vending.CredentialRequest;
import io.icegate.gateway.vending.StorageAccess;
import io.icegate.gateway.vending.TableCredentials;
import io.icegate.gateway.vending.VendingOutcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.RESTUtil;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.responses.ImmutableLoadCredentialsResponse;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/**
 * {@code X-Iceberg-Access-Delegation: vended-credentials} on load-table and create-table (staged
 * or not), and the credentials route {@code GET .../tables/{table}/credentials}. Credentials come
 * from {@link TableCredentials}; what they may do follows the caller's token role ({@link
 * StorageAccess}).
 *
 * <p>An answer that carries credentials has no {@code ETag}, ignores {@code If-None-Match} and says
 * {@code Cache-Control: no-store}: a revalidated (304) answer would let a client keep credentials
 * past their expiry, and no cache may hold them. It is built after the idempotency receipt is
 * written (a create-table receipt never holds credentials; a replay gets fresh ones). When nothing
 * is vended, load-table answers exactly as without the header and the credentials route answers
 * 403 with the reason; nothing else is handed out instead.
 */
final class CredentialDelegation {
  /** Iceberg's client property naming the route its S3FileIO refreshes credentials from. */
  static final String REFRESH_ENDPOINT = "client.refresh-credentials-endpoint";
  private static final Map<String, String> NO_STORE = Map.of("Cache-Control", "no-store");

  private final TableCredentials credentials;

  CredentialDelegation(TableCredentials credentials) {
    this.credentials = credentials;
  }

  /**
   * Load-table: with the delegation header and credentials to vend, the metadata plus {@code
   * storage-credentials}; otherwise {@code loads}' plain answer (ETag, cache, 304). Either way the
   * table is read in one store transaction ({@link TableReads#readable}).
   */
  IcebergReply load(RepositoryCatalog catalog, IcebergRequest request, TableLoads loads) {
    if (!request.wantsVendedCredentials()) {
      return loads.load(catalog, request);
    }
    String mode = TableLoads.snapshotsMode(request);
    TableIdentifier ident = request.table();
    TableRead read = catalog.tableReads().readable(ident, source -> true);
    VendingOutcome outcome = vend(read, ident, access(request));
    if (!(outcome instanceof VendingOutcome.Vended vended)) {
      return loads.answer(catalog, request, read);
    }
    LoadTableResponse.Builder response = LoadTableResponse.builder()
        .withTableMetadata(TableLoads.forMode(read.metadata(), mode));
    return new IcebergReply(200, withCredentials(response, catalog, ident, vended).build(),
        NO_STORE);
  }

  /**
   * Create-table's {@code reply} (already recorded for idempotency when it had a key), with
   * credentials for the new table's location added when the client asked and there are any.
   */
  IcebergReply created(RepositoryCatalog catalog, IcebergRequest request, IcebergReply reply) {
    if (!request.wantsVendedCredentials() || reply.status() != 200 || reply.body() == null) {
      return reply;
    }
    LoadTableResponse created = parse(reply.body());
    CreateTableRequest body = request.bodyAs(CreateTableRequest.class);
    TableIdentifier ident = TableIdentifier.of(request.namespace(), body.name());
    // A staged create stores nothing until its commit: no record, and always a native table
    // (which is always visible: its read is the Catalog's and its record's, one transaction).
    TableRead read = body.stageCreate() ? null : catalog.tableReads().readable(ident, s -> false);
    TableMetadata metadata = created.tableMetadata();
    VendingOutcome outcome = credentials.credentials(new CredentialRequest(
        read == null ? catalog.tableReads().currentCatalog() : read.catalog(), ident,
        read == null ? null : read.table(), metadata.location(), StorageAccess.READ_WRITE));
    if (!(outcome instanceof VendingOutcome.Vended vended)) {
      return reply;
    }
    LoadTableResponse.Builder response = LoadTableResponse.builder()
        .withTableMetadata(metadata)
        .addAllConfig(created.config());
    Map<String, String> headers = new HashMap<>(reply.headers());
    headers.remove("ETag");
    headers.putAll(NO_STORE);
    return new IcebergReply(200, withCredentials(response, catalog, ident, vended).build(),
        headers);
  }

  /**
   * {@code GET .../tables/{table}/credentials}: credentials for the table now.
   *
   * @throws ForbiddenException with the reason when nothing is vended for the table
   */
  IcebergReply credentials(RepositoryCatalog catalog, IcebergRequest request) {
    TableRead read = catalog.tableReads().readable(request.table(), source -> true);
    VendingOutcome outcome = vend(read, request.table(), access(request));
    if (outcome instanceof VendingOutcome.NotVended none) {
      throw new ForbiddenException("%s", none.reason());
    }
    VendingOutcome.Vended vended = (VendingOutcome.Vended) outcome;
    return new IcebergReply(200,
        ImmutableLoadCredentialsResponse.builder().addAllCredentials(vended.credentials()).build(),
        NO_STORE);
  }

  /**
   * Vending for existing table {@code ident} as {@code read} found it: its record, the metadata
   * served for it (whose location the credentials cover) and the Catalog's current record (its
   * storage settings and credential generation, which a rotation may have moved since the adapter
   * was built).
   */
  private VendingOutcome vend(TableRead read, TableIdentifier ident, StorageAccess access) {
    return credentials.credentials(new CredentialRequest(
        read.catalog(), ident, read.table(), read.metadata().location(), access));
  }

  private static StorageAccess access(IcebergRequest request) {
    return request.principal().role().covers(TokenRole.WRITER)
        ? StorageAccess.READ_WRITE
        : StorageAccess.READ;
  }

  /**
   * Adds the credentials and, for expiring ones, the refresh route (relative to the client's
   * catalog URI, as Iceberg's S3FileIO resolves it). Not for more than one credential (a captured
   * Delta table: the upstream's data prefix and the Catalog's generated-files prefix): iceberg-core
   * 1.10.1's S3FileIO picks a credential by longest prefix, but its refresh provider refuses an
   * answer with more than one, so a query outlasting those credentials fails instead.
   */
  private static LoadTableResponse.Builder withCredentials(LoadTableResponse.Builder response,
      RepositoryCatalog catalog, TableIdentifier ident, VendingOutcome.Vended vended) {
    response.addAllCredentials(vended.credentials());
    if (vended.expiresAt() != null && vended.credentials().size() == 1) {
      response.addConfig(REFRESH_ENDPOINT, "v1/" + RESTUtil.encodeString(catalog.catalogId())
          + "/namespaces/" + RESTUtil.encodeNamespace(ident.namespace())
          + "/tables/" + RESTUtil.encodeString(ident.name()) + "/credentials");
    }
    return response;
  }

  private static LoadTableResponse parse(Object body) {
    if (body instanceof LoadTableResponse response) {
      return response;
    }
    try {
      return IcebergJson.mapper().readValue((byte[]) body, LoadTableResponse.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
