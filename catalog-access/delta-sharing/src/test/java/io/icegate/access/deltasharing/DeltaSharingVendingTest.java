package io.icegate.access.deltasharing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.client.CatalogClientFactory;
import io.icegate.access.connection.CatalogAuthentication;
import io.icegate.access.connection.CatalogAuthenticationScheme;
import io.icegate.access.connection.CatalogConnectionConfig;
import io.icegate.access.connection.CatalogProtocol;
import io.icegate.access.connection.ResolvedCatalogCredentials;
import io.icegate.access.delta.fixture.DeltaLogWriter;
import io.icegate.access.deltasharing.fixture.DeltaSharingFixture;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.model.UpstreamTable;
import io.icegate.access.storage.VendedStorageCredentials;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Access modes, temporary table credentials and the storage check, against the fixture with table
 * logs on s3proxy. s3proxy accepts one identity and ignores session tokens, so "exactly the vended
 * keys" is shown by vending wrong keys while the right ones exist in the same JVM.
 */
class DeltaSharingVendingTest {

  private static final NamespacePath SCHEMA = NamespacePath.of("share", "tables");
  private static final String BUCKET = "sharing";

  private static ObjectStoreFixture store;
  private static DeltaSharingFixture server;
  private static String token;

  @BeforeAll
  static void start() throws Exception {
    store = ObjectStoreFixture.startS3Proxy();
    store.createBucket(BUCKET);
    server = DeltaSharingFixture.start();
    token = server.issueToken();
    table("directory", List.of("url", "dir"), true);
    table("url_only", List.of("url"), true);
    table("unstated_served", null, true);
    table("unstated_refused", null, false);
    table("unlogged", List.of("dir"), true, false);
  }

  private static void table(String name, List<String> modes, boolean serves) {
    table(name, modes, serves, true);
  }

  private static void table(String name, List<String> modes, boolean serves, boolean writeLog) {
    String location = "s3://" + BUCKET + "/warehouse/" + name;
    server.put(
        "share",
        "tables",
        name,
        new DeltaSharingFixture.Table(
            "id-" + name, location, modes, 2, DeltaSharingDiscoveryTest.SCHEMA, serves));
    if (writeLog) {
      try (S3Client s3 = store.newClient()) {
        new DeltaLogWriter(s3, BUCKET)
            .writeVersions("warehouse/" + name, 2, DeltaSharingDiscoveryTest.SCHEMA);
      }
    }
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
    store.close();
  }

  @BeforeEach
  void rightKeys() {
    server.vend(
        new DeltaSharingFixture.Keys(store.accessKeyId(), store.secretAccessKey(), "session-1"));
    server.clearRequests();
  }

  private static CatalogClient open(String bearer, Map<String, String> extra) {
    Map<String, String> properties = new HashMap<>(store.s3Settings());
    properties.putAll(extra);
    return CatalogClientFactory.load()
        .open(
            new CatalogConnectionConfig(
                CatalogProtocol.DELTA_SHARING,
                server.endpoint(),
                properties,
                new CatalogAuthentication(CatalogAuthenticationScheme.BEARER, Map.of())),
            new ResolvedCatalogCredentials(
                Map.of(ResolvedCatalogCredentials.TOKEN, bearer), Map.of(), null));
  }

  private static Code code(Runnable call) {
    try {
      call.run();
    } catch (CatalogAccessException e) {
      return e.code();
    }
    throw new AssertionError("expected a CatalogAccessException");
  }

  private boolean askedForCredentials(String table) {
    return server.requests().stream()
        .anyMatch(
            r ->
                r.equals(
                    "POST /shares/share/schemas/tables/tables/"
                        + table
                        + "/temporary-table-credentials"));
  }

  @ParameterizedTest
  @EnumSource(DeltaSharingFixture.Mode.class)
  void directoryTableVendsCredentialsThatReadItsDeltaLog(DeltaSharingFixture.Mode mode) {
    server.mode(mode);
    try (CatalogClient client = open(token, Map.of())) {
      UpstreamTable table = client.loadTable(SCHEMA, "directory");
      VendedStorageCredentials vended =
          client.vendStorageCredentials(SCHEMA, "directory").orElseThrow();
      assertThat(vended.prefix()).isEqualTo("s3://sharing/warehouse/directory");
      assertThat(vended.properties())
          .containsEntry(VendedStorageCredentials.S3_ACCESS_KEY_ID, store.accessKeyId())
          .containsEntry(VendedStorageCredentials.S3_SESSION_TOKEN, "session-1");
      assertThat(vended.expiresAt()).isNotNull();
      assertThat(vended.toString()).doesNotContain(store.secretAccessKey());
      client.validateStorageAccess(table, vended);
    }
  }

  @ParameterizedTest
  @EnumSource(DeltaSharingFixture.Mode.class)
  void urlOnlyTableIsRefusedByName(DeltaSharingFixture.Mode mode) {
    server.mode(mode);
    try (CatalogClient client = open(token, Map.of())) {
      assertThatThrownBy(() -> client.vendStorageCredentials(SCHEMA, "url_only"))
          .isInstanceOfSatisfying(
              CatalogAccessException.class,
              e -> {
                assertThat(e.code()).isEqualTo(Code.UNSUPPORTED);
                assertThat(e.getMessage()).contains("share.tables.url_only").contains("[url]");
              });
    }
    assertThat(askedForCredentials("url_only")).isFalse();
  }

  @ParameterizedTest
  @EnumSource(DeltaSharingFixture.Mode.class)
  void absentAccessModesAreAskedAndAccepted(DeltaSharingFixture.Mode mode) {
    server.mode(mode);
    try (CatalogClient client = open(token, Map.of())) {
      UpstreamTable table = client.loadTable(SCHEMA, "unstated_served");
      VendedStorageCredentials vended =
          client.vendStorageCredentials(SCHEMA, "unstated_served").orElseThrow();
      client.validateStorageAccess(table, vended);
    }
    assertThat(askedForCredentials("unstated_served")).isTrue();
  }

  @ParameterizedTest
  @EnumSource(DeltaSharingFixture.Mode.class)
  void absentAccessModesThatTheServerRefusesAreUnsupported(DeltaSharingFixture.Mode mode) {
    server.mode(mode);
    try (CatalogClient client = open(token, Map.of())) {
      assertThatThrownBy(() -> client.vendStorageCredentials(SCHEMA, "unstated_refused"))
          .isInstanceOfSatisfying(
              CatalogAccessException.class,
              e -> {
                assertThat(e.code()).isEqualTo(Code.UNSUPPORTED);
                assertThat(e.getMessage()).contains("share.tables.unstated_refused");
              });
    }
    assertThat(askedForCredentials("unstated_refused")).isTrue();
  }

  @ParameterizedTest
  @EnumSource(DeltaSharingFixture.Mode.class)
  void absentAccessModesAreRefusedWithoutAskingUnderStrictReading(DeltaSharingFixture.Mode mode) {
    server.mode(mode);
    try (CatalogClient client = open(token, Map.of(SharingSettings.STRICT_ACCESS_MODES, "true"))) {
      assertThatThrownBy(() -> client.vendStorageCredentials(SCHEMA, "unstated_served"))
          .isInstanceOfSatisfying(
              CatalogAccessException.class,
              e -> {
                assertThat(e.code()).isEqualTo(Code.UNSUPPORTED);
                assertThat(e.getMessage())
                    .contains("share.tables.unstated_served")
                    .contains(SharingSettings.STRICT_ACCESS_MODES);
              });
      // strict reading changes nothing for a table that states dir
      assertThat(client.vendStorageCredentials(SCHEMA, "directory")).isPresent();
    }
    assertThat(askedForCredentials("unstated_served")).isFalse();
  }

  @ParameterizedTest
  @EnumSource(DeltaSharingFixture.Mode.class)
  void storageIsReadWithExactlyTheVendedKeys(DeltaSharingFixture.Mode mode) {
    server.mode(mode);
    try (CatalogClient client = open(token, Map.of())) {
      UpstreamTable table = client.loadTable(SCHEMA, "directory");
      server.vend(new DeltaSharingFixture.Keys("wrong-key", "wrong-secret", "session-2"));
      VendedStorageCredentials wrong =
          client.vendStorageCredentials(SCHEMA, "directory").orElseThrow();
      // the right identity is in this JVM (the fixture's own clients use it); it must not stand in
      assertThat(code(() -> client.validateStorageAccess(table, wrong)))
          .isEqualTo(Code.STORAGE_ACCESS_FAILED);
    }
  }

  @ParameterizedTest
  @EnumSource(DeltaSharingFixture.Mode.class)
  void missingDeltaLogIsAStorageFailure(DeltaSharingFixture.Mode mode) {
    server.mode(mode);
    try (CatalogClient client = open(token, Map.of())) {
      UpstreamTable table = client.loadTable(SCHEMA, "unlogged");
      VendedStorageCredentials vended =
          client.vendStorageCredentials(SCHEMA, "unlogged").orElseThrow();
      assertThat(code(() -> client.validateStorageAccess(table, vended)))
          .isEqualTo(Code.STORAGE_ACCESS_FAILED);
    }
  }

  @ParameterizedTest
  @EnumSource(DeltaSharingFixture.Mode.class)
  void revokedTokenIsAnAuthenticationFailureDistinctFromVendingAndStorageFailures(DeltaSharingFixture.Mode mode) {
    server.mode(mode);
    String doomed = server.issueToken();
    try (CatalogClient client = open(doomed, Map.of())) {
      UpstreamTable table = client.loadTable(SCHEMA, "directory");
      VendedStorageCredentials vended =
          client.vendStorageCredentials(SCHEMA, "directory").orElseThrow();
      Code vending = code(() -> client.vendStorageCredentials(SCHEMA, "url_only"));
      server.vend(new DeltaSharingFixture.Keys("wrong-key", "wrong-secret", "session-3"));
      VendedStorageCredentials wrong =
          client.vendStorageCredentials(SCHEMA, "directory").orElseThrow();
      Code storage = code(() -> client.validateStorageAccess(table, wrong));

      server.revoke(doomed);
      Code authentication = code(client::validate);
      Code vendAfterRevoke = code(() -> client.vendStorageCredentials(SCHEMA, "directory"));

      assertThat(authentication).isEqualTo(Code.AUTHENTICATION_FAILED);
      assertThat(vendAfterRevoke).isEqualTo(Code.AUTHENTICATION_FAILED);
      assertThat(vending).isEqualTo(Code.UNSUPPORTED);
      assertThat(storage).isEqualTo(Code.STORAGE_ACCESS_FAILED);
      assertThat(List.of(authentication, vending, storage)).doesNotHaveDuplicates();
      // credentials vended before the revocation still read storage: revocation is the server's
      // business, and validation reports it through the authentication entry
      client.validateStorageAccess(table, vended);
    }
  }
}
