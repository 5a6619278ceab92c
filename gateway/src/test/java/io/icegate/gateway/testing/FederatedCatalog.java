package io.icegate.gateway.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.access.iceberg.fixture.CredentialVendingFilter;
import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.core.model.NameScope;
import io.icegate.core.repo.Repositories;
import io.icegate.overlay.store.OverlayStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * A gateway federating a real upstream Iceberg REST catalog (s3proxy + {@link IcebergRestFixture},
 * seeded) into its {@code default} Catalog: one Integration and one Overlay including {@code
 * sales} (without {@code sales.emea}), set up over the admin API as a user would. Tests reconcile
 * ({@link #reconcile()}), commit upstream ({@link #appendUpstream}) and read through the gateway.
 */
public final class FederatedCatalog implements AutoCloseable {
  public static final TableIdentifier ORDERS = TableIdentifier.of("sales", "orders");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ObjectStoreFixture objects;
  private final IcebergRestFixture upstream;
  private final GatewayFixture gateway;
  private final String account;
  private final String integration;
  private final String overlay;

  private FederatedCatalog(ObjectStoreFixture objects, IcebergRestFixture upstream,
      GatewayFixture gateway, String account, String integration, String overlay) {
    this.objects = objects;
    this.upstream = upstream;
    this.gateway = gateway;
    this.account = account;
    this.integration = integration;
    this.overlay = overlay;
  }

  /**
   * Starts the object store, the seeded upstream and a gateway, and creates the Integration (the
   * object store's endpoint, region and path-style setting as its storage properties) and the
   * Overlay. Nothing is reconciled yet.
   */
  public static FederatedCatalog start() throws Exception {
    return start(null);
  }

  /** As {@link #start()}, with the gateway on {@code store} (its own SQLite store when null). */
  public static FederatedCatalog start(io.icegate.core.store.KvStore store) throws Exception {
    ObjectStoreFixture objects = ObjectStoreFixture.startS3Proxy();
    IcebergRestFixture upstream = IcebergRestFixture.start(objects).seed();
    GatewayFixture gw = GatewayFixture.start(store);
    String account = gw.defaultAccountId();
    String base = "/admin/v1/accounts/" + account;
    String integration = json(gw.send("POST", base + "/integrations", "{\"displayName\":\"up\","
        + "\"type\":\"ICEBERG_REST\",\"uri\":\"" + upstream.uri() + "\","
        + "\"properties\":" + JSON.writeValueAsString(objects.s3Settings()) + ","
        + "\"authentication\":{\"type\":\"bearer\",\"token\":\"upstream-bearer-secret\"}}"))
        .get("id").asText();
    String overlay = json(gw.send("POST", base + "/overlays", "{\"displayName\":\"sales\","
        + "\"integrationId\":\"" + integration + "\",\"catalogId\":\"" + gw.prefix()
        + "\",\"includeNamespaces\":[[\"sales\"]],\"excludeNamespaces\":[[\"sales\",\"emea\"]]}"))
        .get("id").asText();
    return new FederatedCatalog(objects, upstream, gw, account, integration, overlay);
  }

  public GatewayFixture gateway() {
    return gateway;
  }

  public IcebergRestFixture upstream() {
    return upstream;
  }

  public ObjectStoreFixture objects() {
    return objects;
  }

  public String account() {
    return account;
  }

  public String integration() {
    return integration;
  }

  public String overlay() {
    return overlay;
  }

  /** {@code /admin/v1/accounts/{account}}. */
  public String adminBase() {
    return "/admin/v1/accounts/" + account;
  }

  /**
   * What the upstream's vending filter hands out for the warehouse: the object store's own
   * identity as a session (s3proxy ignores the token) expiring {@code lifetimeMillis} from now
   * (negative: already expired).
   */
  public CredentialVendingFilter.Vended storeSession(long lifetimeMillis) {
    Map<String, String> session = new HashMap<>();
    session.put("s3.access-key-id", objects.accessKeyId());
    session.put("s3.secret-access-key", objects.secretAccessKey());
    session.put("s3.session-token", "fixture-session-token");
    session.put("s3.session-token-expires-at-ms",
        Long.toString(System.currentTimeMillis() + lifetimeMillis));
    return new CredentialVendingFilter.Vended(List.of(
        new CredentialVendingFilter.StorageCredential(upstream.warehouse(), session)), Map.of());
  }

  /** Reconciles the Overlay synchronously; the report. */
  public JsonNode reconcile() {
    HttpResponse<String> report =
        gateway.send("POST", adminBase() + "/overlays/" + overlay + "/reconcile", null);
    assertThat(report.statusCode()).as(report.body()).isEqualTo(200);
    return json(report);
  }

  private Repositories repositories() {
    return OverlayStore.repositories(gateway.gateway().store(), Clock.systemUTC());
  }

  /** The gateway's id of the Table {@code ident} of the Catalog, from the store. */
  public String tableId(TableIdentifier ident) {
    return repositories().tables(account).getByName(NameScope.inCatalog(
            gateway.prefix(), List.of(ident.namespace().levels())), ident.name())
        .orElseThrow().id();
  }

  /**
   * Publishes a validation of {@code ident}'s current capture with one error per file in {@code
   * badFiles} (none: clean, the table becomes visible); see {@link TestValidations}.
   */
  public void validate(TableIdentifier ident, String... badFiles) {
    TestValidations.publish(gateway.gateway().store(), account, tableId(ident), ident.toString(),
        badFiles);
  }

  /**
   * One upstream commit appending a data file to {@code ident}; the upstream's metadata after it.
   * The file is never written: a reconcile's validation finds it missing (one error).
   */
    public TableMetadata appendUpstream(TableIdentifier ident) {
    try (RESTCatalog client = upstream.newClient()) {
      org.apache.iceberg.Table table = client.loadTable(ident);
      DataFile file = DataFiles.builder(table.spec())
          .withPath(table.location() + "/data/" + UUID.randomUUID() + ".parquet")
          .withFileSizeInBytes(1024).withRecordCount(3).withFormat("PARQUET").build();
      table.newAppend().appendFile(file).commit();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return upstreamMetadata(ident);
  }

  /** The upstream's current metadata of {@code ident}, read from its backing catalog. */
  public TableMetadata upstreamMetadata(TableIdentifier ident) {
    return ((HasTableOperations) upstream.backingCatalog().loadTable(ident)).operations().current();
  }

  /** The REST path of load-table for {@code ident} (single-level namespace). */
  public String loadPath(TableIdentifier ident) {
    return "/iceberg/v1/" + gateway.prefix() + "/namespaces/" + ident.namespace().level(0)
        + "/tables/" + ident.name();
  }

  /** The response body as JSON, after asserting a 2xx status. */
  public static JsonNode json(HttpResponse<String> response) {
    assertThat(response.statusCode()).as(response.body()).isBetween(200, 299);
    try {
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() throws Exception {
    try {
      gateway.close();
    } finally {
      try {
        upstream.close();
      } finally {
        objects.close();
      }
    }
  }
}
