package io.icegate.access.unity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.model.UpstreamTable;
import io.icegate.access.storage.StorageLocations;
import io.icegate.access.storage.VendedStorageCredentials;
import io.icegate.access.unity.fixture.UnityCatalogFixture.Vending;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.SortOrderParser;
import org.apache.iceberg.types.Types;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Credential vending from temporary-table-credentials, storage validation on the Delta log with
 * exactly the vended keys, and the Delta-log schema with its Unity-column fallback.
 */
class UnityStorageTest {

  static UnityEnvironment env;
  static final NamespacePath SALES = NamespacePath.of("sales");
  static final Map<String, String> OLD = Map.of("id", "long");
  static final Map<String, String> NEW = new LinkedHashMap<>();
  static final Map<String, String> PARTITIONED = new LinkedHashMap<>();

  @BeforeAll
  static void setUp() throws Exception {
    env = new UnityEnvironment();
    NEW.put("id", "long");
    NEW.put("amount", "double");
    NEW.put("placed", "timestamp");
    // Unity still reports the creation-time columns; the log gained two columns since.
    env.unity.addTable("main", "sales", "evolved", "EXTERNAL", "DELTA", env.location("t/evolved"), OLD);
    env.log.commitSchema("t/evolved", 0, OLD);
    env.log.commitAppend("t/evolved", 1);
    env.log.commitSchema("t/evolved", 2, NEW);
    env.log.commitAppend("t/evolved", 3);
    env.unity.addTable("main", "sales", "nolog", "EXTERNAL", "DELTA", env.location("t/nolog"), OLD);
    PARTITIONED.put("id", "long");
    PARTITIONED.put("region", "string");
    PARTITIONED.put("day", "date");
    // the log and Unity disagree on purpose, to show which one the spec comes from
    env.unity.addTable(
        "main", "sales", "by_day", "EXTERNAL", "DELTA", env.location("t/by_day"), PARTITIONED);
    env.unity.partitionBy("main", "sales", "by_day", List.of("region"));
    env.log.commitSchema("t/by_day", 0, PARTITIONED, List.of("day", "region"));
    env.unity.addTable(
        "main", "sales", "by_region_nolog", "EXTERNAL", "DELTA", env.location("t/by_region"),
        PARTITIONED);
    env.unity.partitionBy("main", "sales", "by_region_nolog", List.of("region"));
    env.unity.addTable(
        "main", "sales", "misfit", "EXTERNAL", "DELTA", env.location("t/misfit"), PARTITIONED);
    env.log.commitSchema("t/misfit", 0, PARTITIONED, List.of("country"));
    // Unity states a key with a space URI-encoded (it refuses a raw one); the log is at the key
    env.unity.addTable(
        "main", "sales", "spaced", "EXTERNAL", "DELTA", env.location("t/order%20items"), OLD);
    env.log.commitSchema("t/order items", 0, OLD);
    env.log.commitAppend("t/order items", 1);
    for (Vending mode : Vending.values()) {
      String name = mode.name().toLowerCase();
      String id = env.unity.addTable("main", "sales", name, "MANAGED", "DELTA", env.location("t/" + name), OLD);
      env.log.commitSchema("t/" + name, 0, OLD);
      env.unity.vending(id, mode);
    }
  }

  @AfterAll
  static void tearDown() throws Exception {
    env.close();
  }

  static CatalogClient client() {
    return env.open(Map.of("catalog", "main"));
  }

  static Code code(Throwable e) {
    return ((CatalogAccessException) e).code();
  }

  @Test
  void theDeltaLogSchemaWinsOverAnOlderUnityColumnList() {
    try (CatalogClient client = client()) {
      UpstreamTable table = client.loadTable(SALES, "evolved");
      assertThat(table.properties())
          .containsEntry(UnityClient.SCHEMA_SOURCE, "delta-log")
          .containsEntry(UnityClient.DELTA_LOG_VERSION, "3");
      assertThat(table.schemaJson())
          .contains("\"name\":\"amount\"")
          .contains("\"type\":\"timestamptz\"");
      assertThat(table.metadataLocation()).endsWith("t/evolved/_delta_log/00000000000000000003.json");
    }
  }

  @Test
  void unityColumnsAreUsedOnlyWhenTheLogCannotBeRead() {
    try (CatalogClient client = client()) {
      UpstreamTable table = client.loadTable(SALES, "nolog");
      assertThat(table.properties()).containsEntry(UnityClient.SCHEMA_SOURCE, "unity-columns");
      assertThat(table.properties().get(UnityClient.SCHEMA_FALLBACK_REASON)).contains("no Delta commits");
      assertThat(SchemaParser.fromJson(table.schemaJson()).columns())
          .extracting(Types.NestedField::name)
          .containsExactly("id"); // Iceberg schema JSON, like the log's conversion
    }
  }

  /**
   * Issue 21: credentials that cannot be vended or that the store refuses say nothing about the
   * schema. The load fails (the reconciler holds the table) rather than falling back to Unity's
   * columns, which can lag the log and would be published as a schema change; wrong vended keys
   * are never replaced by ambient ones either.
   */
  @Test
  void aLogTheVendedCredentialsCannotReadFailsTheLoadInsteadOfFallingBack() {
    try (CatalogClient client = client()) {
      assertThatThrownBy(() -> client.loadTable(SALES, "wrong_keys"))
          .satisfies(e -> assertThat(code(e)).isEqualTo(Code.STORAGE_ACCESS_FAILED))
          .hasMessageContaining("403");
      assertThatThrownBy(() -> client.loadTable(SALES, "refused"))
          .satisfies(e -> assertThat(code(e)).isEqualTo(Code.CREDENTIAL_VENDING_FAILED))
          .hasMessageContaining("PERMISSION_DENIED");
    }
  }

  /**
   * Real-server tryout: Unity 0.6.0 configured with a static session ({@code s3.sessionToken.0},
   * its documented set-up for stores without STS) answers {@code "expiration_time": null}. Such a
   * table was refused and held ("has no expiration_time"), so a Unity on MinIO or on-premises
   * storage could not be federated at all. It is vended with no expiry: fetched again on the
   * caller's cadence, no expiry property for clients.
   */
  @Test
  void aSessionUnityStatesNoExpiryForIsVendedWithoutOne() {
    try (CatalogClient client = client()) {
      assertThat(client.loadTable(SALES, "no_expiry").metadataLocation()).endsWith("0.json");
      VendedStorageCredentials vended =
          client.vendStorageCredentials(SALES, "no_expiry").orElseThrow();
      assertThat(vended.expiresAt()).isNull();
      assertThat(vended.properties())
          .containsOnlyKeys(
              VendedStorageCredentials.S3_ACCESS_KEY_ID,
              VendedStorageCredentials.S3_SECRET_ACCESS_KEY,
              VendedStorageCredentials.S3_SESSION_TOKEN);
      client.validateStorageAccess(client.loadTable(SALES, "no_expiry"), vended);
    }
  }

  /**
   * Unity 0.6.0 answers a table at key {@code t/order items} with {@code storage_location} and the
   * vended {@code url} both {@code s3://lake/t/order%20items}. Capture names the data files by their
   * keys ({@code s3://lake/t/order items/part-1.parquet}) and a client pairs a credential with a
   * file by textual prefix (S3FileIO), so the prefix is answered in that form; as vended, no data
   * file matched it and the client fell back to its ambient AWS credentials.
   */
  @Test
  void aLocationUnityStatesUriEncodedIsVendedForTheKeysItsFilesAreNamedBy() {
    try (CatalogClient client = client()) {
      VendedStorageCredentials vended =
          client.vendStorageCredentials(SALES, "spaced").orElseThrow();
      assertThat(vended.prefix()).isEqualTo(env.location("t/order items"));
      UpstreamTable table = client.loadTable(SALES, "spaced");
      assertThat(table.storageLocation()).isEqualTo(env.location("t/order%20items"));
      assertThat(table.metadataLocation())
          .isEqualTo(env.location("t/order items/_delta_log/00000000000000000001.json"));
      assertThat(StorageLocations.covers(vended.prefix(), table.metadataLocation())).isTrue();
      assertThat(StorageLocations.covers(vended.prefix(), env.location("t/order items/part-1.parquet")))
          .isTrue();
      client.validateStorageAccess(table, vended); // the probe's scope check takes both forms
    }
  }

  @Test
  void theLogsPartitionColumnsBecomeIdentityFieldsAndTheTableIsUnsortedVersionTwo() {
    try (CatalogClient client = client()) {
      UpstreamTable table = client.loadTable(SALES, "by_day");
      assertThat(table.properties()).containsEntry(UnityClient.SCHEMA_SOURCE, "delta-log");
      assertThat(partitionFields(table))
          .containsExactly(tuple("day", "identity"), tuple("region", "identity"));
      Schema schema = SchemaParser.fromJson(table.schemaJson());
      assertThat(SortOrderParser.fromJson(schema, table.sortOrderJson()).isUnsorted()).isTrue();
      assertThat(table.formatVersion()).isEqualTo(2);

      UpstreamTable plain = client.loadTable(SALES, "evolved");
      assertThat(
              PartitionSpecParser.fromJson(
                      SchemaParser.fromJson(plain.schemaJson()), plain.partitionSpecJson())
                  .isUnpartitioned())
          .isTrue();
    }
  }

  @Test
  void withoutALogUnitysPartitionIndexGivesThePartitionColumns() {
    try (CatalogClient client = client()) {
      UpstreamTable table = client.loadTable(SALES, "by_region_nolog");
      assertThat(table.properties()).containsEntry(UnityClient.SCHEMA_SOURCE, "unity-columns");
      assertThat(partitionFields(table)).containsExactly(tuple("region", "identity"));
    }
  }

  @Test
  void aPartitionColumnMissingFromTheSchemaIsAProtocolError() {
    try (CatalogClient client = client()) {
      assertThatThrownBy(() -> client.loadTable(SALES, "misfit"))
          .isInstanceOfSatisfying(
              CatalogAccessException.class,
              e -> {
                assertThat(e.code()).isEqualTo(Code.UPSTREAM_PROTOCOL_ERROR);
                assertThat(e.getMessage()).contains("misfit").contains("country");
              });
    }
  }

  /** The spec's fields as (source column name, transform) after parsing it back. */
  static List<Tuple> partitionFields(UpstreamTable table) {
    Schema schema = SchemaParser.fromJson(table.schemaJson());
    return PartitionSpecParser.fromJson(schema, table.partitionSpecJson()).fields().stream()
        .map(f -> tuple(schema.findColumnName(f.sourceId()), f.transform().toString()))
        .toList();
  }

  @Test
  void vendedCredentialsAreTheTablesSessionAndOpenItsLog() {
    try (CatalogClient client = client()) {
      VendedStorageCredentials vended = client.vendStorageCredentials(SALES, "valid").orElseThrow();
      assertThat(vended.prefix()).isEqualTo(env.location("t/valid"));
      assertThat(vended.expiresAt()).isNotNull();
      assertThat(vended.properties())
          .containsOnlyKeys(
              VendedStorageCredentials.S3_ACCESS_KEY_ID,
              VendedStorageCredentials.S3_SECRET_ACCESS_KEY,
              VendedStorageCredentials.S3_SESSION_TOKEN,
              VendedStorageCredentials.S3_SESSION_TOKEN_EXPIRES_AT_MS);
      assertThat(vended.toString()).doesNotContain(env.store.secretAccessKey());
      client.validateStorageAccess(client.loadTable(SALES, "valid"), vended);
    }
    assertThat(env.unity.requests()).contains("POST /api/2.1/unity-catalog/temporary-table-credentials");
  }

  @Test
  void eachFailureHasItsOwnCode() {
    try (CatalogClient client = client()) {
      // storage: wrong vended keys beside right ambient ones (s3proxy has one identity)
      VendedStorageCredentials wrong = client.vendStorageCredentials(SALES, "wrong_keys").orElseThrow();
      // its load fails now (issue 21: the log is not read with the wrong keys), so the table as
      // Unity places it, for the storage check
      UpstreamTable like = client.loadTable(SALES, "valid");
      UpstreamTable wrongTable = new UpstreamTable(SALES, "wrong_keys", like.format(),
          like.identity(), null, env.location("t/wrong_keys"), like.schemaJson(), Map.of());
      assertThatThrownBy(() -> client.validateStorageAccess(wrongTable, wrong))
          .extracting(UnityStorageTest::code)
          .isEqualTo(Code.STORAGE_ACCESS_FAILED);
      // scope: the credential was issued for another location
      assertThatThrownBy(() -> client.vendStorageCredentials(SALES, "foreign_url"))
          .extracting(UnityStorageTest::code)
          .isEqualTo(Code.CREDENTIAL_SCOPE_INVALID);
      VendedStorageCredentials valid = client.vendStorageCredentials(SALES, "valid").orElseThrow();
      assertThatThrownBy(() -> client.validateStorageAccess(wrongTable, valid))
          .extracting(UnityStorageTest::code)
          .isEqualTo(Code.CREDENTIAL_SCOPE_INVALID);
      // vending refused upstream, and a vended bare key pair
      assertThatThrownBy(() -> client.vendStorageCredentials(SALES, "refused"))
          .extracting(UnityStorageTest::code)
          .isEqualTo(Code.PERMISSION_DENIED);
      assertThatThrownBy(() -> client.vendStorageCredentials(SALES, "no_session_token"))
          .extracting(UnityStorageTest::code)
          .isEqualTo(Code.INVALID_CONFIGURATION);
      // expiry
      assertThatThrownBy(() -> client.vendStorageCredentials(SALES, "expired"))
          .extracting(UnityStorageTest::code)
          .isEqualTo(Code.CREDENTIAL_EXPIRED);
    }
    // authentication
    env.unity.requireBearer("only-this");
    try (CatalogClient client = client()) {
      assertThatThrownBy(client::validate).extracting(UnityStorageTest::code).isEqualTo(Code.AUTHENTICATION_FAILED);
    } finally {
      env.unity.requireBearer(null);
    }
  }

  @Test
  void aCatalogOnADeniedAddressIsRefusedAtOpen() {
    try (CatalogClient client = client()) {
      VendedStorageCredentials vended = client.vendStorageCredentials(SALES, "valid").orElseThrow();
      UpstreamTable table = client.loadTable(SALES, "valid");
      io.icegate.access.connection.CatalogConnectionConfig config =
          new io.icegate.access.connection.CatalogConnectionConfig(
              io.icegate.access.connection.CatalogProtocol.UNITY,
              env.unity.uri(),
              env.properties(Map.of("catalog", "main")),
              null);
      try (CatalogClient strict =
          new UnityProvider()
              .open(
                  config,
                  null,
                  io.icegate.access.network.OutboundAddressPolicy.defaults().denyLoopback())) {
        throw new AssertionError("opening against a loopback endpoint should be refused: " + strict);
      } catch (CatalogAccessException e) {
        assertThat(e.code()).isEqualTo(Code.ADDRESS_DENIED);
      }
      assertThat(table.storageLocation()).isNotNull();
      assertThat(vended).isNotNull();
    }
  }
}
