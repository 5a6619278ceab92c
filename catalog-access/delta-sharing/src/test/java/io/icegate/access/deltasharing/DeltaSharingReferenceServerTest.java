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
import io.icegate.access.delta.fixture.DeltaSchemaSamples;
import io.icegate.access.deltasharing.fixture.DeltaSharingFixture;
import io.icegate.access.deltasharing.fixture.DeltaSharingFixture.Mode;
import io.icegate.access.model.CatalogObjectKind;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.model.UpstreamTable;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The shapes in which servers differ from one reading of the protocol (issue 24): where a table's
 * location comes from, capability negotiation, and failures that name what failed; each case in
 * both fixture modes, with what each mode must answer.
 */
class DeltaSharingReferenceServerTest {

  private static final NamespacePath REF = NamespacePath.of("sales", "ref");
  private static DeltaSharingFixture server;
  private static String token;

  @BeforeAll
  static void start() throws Exception {
    server = DeltaSharingFixture.start();
    token = server.issueToken();
    String schema = DeltaSharingDiscoveryTest.SCHEMA;
    server.put("sales", "ref", "hadoop",
        new DeltaSharingFixture.Table("id-h", "s3a://bucket/ref/hadoop", null, 3, schema, true));
    server.put("sales", "ref", "urlonly",
        new DeltaSharingFixture.Table("id-u", "s3://bucket/ref/u", List.of("url"), 1, schema,
            false));
    server.put("sales", "ref", "mapped",
        new DeltaSharingFixture.Table("id-m", "s3://bucket/ref/m", null, 4,
            DeltaSchemaSamples.COLUMN_MAPPED, true, List.of(),
            Map.of("delta.columnMapping.mode", "name", "delta.columnMapping.maxColumnId", "20")));
    server.put("sales", "ref", "vectors",
        new DeltaSharingFixture.Table("id-v", "s3://bucket/ref/v", null, 2, schema, true,
            List.of(), Map.of("delta.enableDeletionVectors", "true")));
    server.put("sales", "ref", "widened",
        new DeltaSharingFixture.Table("id-w", "s3://bucket/ref/w", null, 2, schema, true,
            List.of(), Map.of("delta.enableTypeWidening", "true")));
    server.put("sales", "ref", "broken",
        new DeltaSharingFixture.Table("id-b", "s3://bucket/ref/b", null, 2, schema, true));
    server.failWithServerError("sales", "ref", "broken");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static CatalogClient open(URI endpoint) {
    return CatalogClientFactory.load()
        .open(
            new CatalogConnectionConfig(
                CatalogProtocol.DELTA_SHARING,
                endpoint,
                Map.of(),
                new CatalogAuthentication(CatalogAuthenticationScheme.BEARER, Map.of())),
            new ResolvedCatalogCredentials(
                Map.of(ResolvedCatalogCredentials.TOKEN, token), Map.of(), null));
  }

  private static CatalogAccessException failure(Runnable call) {
    try {
      call.run();
    } catch (CatalogAccessException e) {
      return e;
    }
    throw new AssertionError("expected a CatalogAccessException");
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void anS3aLocationStatedAnywhereIsTheTablesS3Location(Mode mode) {
    server.mode(mode);
    try (CatalogClient client = open(server.endpoint())) {
      UpstreamTable table = client.loadTable(REF, "hadoop");
      assertThat(table.storageLocation()).isEqualTo("s3a://bucket/ref/hadoop");
      assertThat(table.metadataLocation())
          .isEqualTo("s3a://bucket/ref/hadoop/_delta_log/00000000000000000003.json");
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aLocationNobodyStatesIsAFailureOfThatTableNamingTheMissingLocation(Mode mode) {
    server.mode(mode);
    try (CatalogClient client = open(server.endpoint())) {
      if (mode == Mode.STATES_LOCATIONS) {
        assertThat(client.loadTable(REF, "urlonly").storageLocation()).isEqualTo("s3://bucket/ref/u");
        return;
      }
      CatalogAccessException e = failure(() -> client.loadTable(REF, "urlonly"));
      assertThat(e.code()).isEqualTo(Code.UPSTREAM_PROTOCOL_ERROR);
      assertThat(e.getMessage()).contains("sales.ref.urlonly", "TABLE_LOCATION_MISSING");
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void columnMappedTablesAreServedThroughTheNegotiatedDeltaFormat(Mode mode) {
    server.mode(mode);
    try (CatalogClient client = open(server.endpoint())) {
      UpstreamTable table = client.loadTable(REF, "mapped");
      Schema schema = SchemaParser.fromJson(table.schemaJson());
      assertThat(schema.findField("id").fieldId()).isEqualTo(7);
      assertThat(table.properties()).containsEntry("delta.columnMapping.mode", "name");
      assertThat(table.storageLocation()).isEqualTo("s3://bucket/ref/m");
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void deletionVectorTablesAreServedThroughTheNegotiatedDeltaFormat(Mode mode) {
    server.mode(mode);
    try (CatalogClient client = open(server.endpoint())) {
      // capture applies deletion vectors (position deletes), so the feature is declared
      assertThat(client.loadTable(REF, "vectors").properties())
          .containsEntry("delta.enableDeletionVectors", "true");
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aTableNeedingAReaderFeatureIcegateDoesNotServeFailsAloneAndByName(Mode mode) {
    server.mode(mode);
    try (CatalogClient client = open(server.endpoint())) {
      if (mode == Mode.REFERENCE_SERVER) {
        CatalogAccessException e = failure(() -> client.loadTable(REF, "widened"));
        assertThat(e.getMessage())
            .contains("table metadata of sales.ref.widened", "Unsupported Delta Table Properties");
      } else {
        assertThat(client.loadTable(REF, "widened").properties())
            .containsEntry("delta.enableTypeWidening", "true");
      }
      assertThat(client.listObjects(REF, Set.of(CatalogObjectKind.TABLE)))
          .extracting(ref -> ref.name())
          .contains("widened", "vectors", "hadoop", "mapped");
      assertThat(client.loadTable(REF, "hadoop").name()).isEqualTo("hadoop");
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void failuresNameTheTableSchemaOrShare(Mode mode) {
    server.mode(mode);
    try (CatalogClient client = open(server.endpoint())) {
      CatalogAccessException table = failure(() -> client.loadTable(REF, "nope"));
      assertThat(table.code()).isEqualTo(Code.NOT_FOUND);
      assertThat(table.getMessage()).contains("sales.ref.nope", "HTTP 404");
      CatalogAccessException schema =
          failure(() -> client.listObjects(NamespacePath.of("sales", "nope"),
              Set.of(CatalogObjectKind.TABLE)));
      assertThat(schema.getMessage()).contains("sales.nope", "HTTP 404");
      CatalogAccessException share = failure(() -> client.listNamespaces(NamespacePath.of("gone")));
      assertThat(share.getMessage()).contains("share gone", "HTTP 404");
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aWrongPrefixIsThe404OfTheShareListingNotAMissingNamespace(Mode mode) {
    server.mode(mode);
    URI wrong = URI.create(server.endpoint() + "/api/v1");
    try (CatalogClient client = open(wrong)) {
      for (Runnable call :
          List.<Runnable>of(client::validate, () -> client.listNamespaces(NamespacePath.of()))) {
        CatalogAccessException e = failure(call);
        assertThat(e.code()).isEqualTo(Code.INVALID_CONFIGURATION);
        assertThat(e.getMessage()).contains("share listing failed: HTTP 404", wrong + "/shares");
      }
    }
  }

  @Test
  void anUnreachableServerIsNamedByHostAndPort() throws Exception {
    int closed;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      closed = socket.getLocalPort(); // nothing listens there once it is closed
    }
    try (CatalogClient client = open(URI.create("http://127.0.0.1:" + closed + "/sharing"))) {
      CatalogAccessException e = failure(client::validate);
      assertThat(e.code()).isEqualTo(Code.CONNECTION_FAILED);
      assertThat(e.getMessage()).contains("cannot reach the sharing server for ", " at 127.0.0.1:"
          + closed + " (connection refused: ConnectException)").doesNotContain("/sharing");
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aServerErrorIsNotAConnectionFailure(Mode mode) {
    server.mode(mode);
    try (CatalogClient client = open(server.endpoint())) {
      CatalogAccessException e = failure(() -> client.loadTable(REF, "broken"));
      assertThat(e.code()).as(e.getMessage()).isNotEqualTo(Code.CONNECTION_FAILED);
      assertThat(e.code().retryable()).isFalse();
      assertThat(e.getMessage()).contains("sales.ref.broken", "HTTP 500");
    }
  }
}
