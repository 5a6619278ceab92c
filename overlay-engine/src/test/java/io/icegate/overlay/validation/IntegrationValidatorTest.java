package io.icegate.overlay.validation;

import static io.icegate.overlay.reconcile.UnityDeltaUpstream.LAKE;
import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.access.deltasharing.fixture.DeltaSharingFixture;
import io.icegate.access.iceberg.fixture.CredentialVendingFilter.StorageCredential;
import io.icegate.access.iceberg.fixture.CredentialVendingFilter.Vended;
import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.access.model.CatalogObjectKind;
import io.icegate.access.model.CatalogObjectRef;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.unity.UnitySettings;
import io.icegate.access.delta.fixture.DeltaLogWriter;
import io.icegate.access.unity.fixture.UnityCatalogFixture;
import io.icegate.core.credential.SecretValues;
import io.icegate.core.durability.CreateRequest;
import io.icegate.core.model.Integration;
import io.icegate.admin.model.IntegrationAuthentication;
import io.icegate.admin.model.IntegrationType;
import io.icegate.core.repo.OnConflict;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.overlay.reconcile.ReconcileHarness;
import io.icegate.overlay.reconcile.UnityDeltaUpstream;
import io.icegate.overlay.validation.CheckResult.Status;
import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Integration validation over the three providers' fixtures on loopback (Iceberg's REST servlet
 * over JDBC on s3proxy; the Unity and Delta Sharing fixtures written from their public API
 * documents, Delta logs on s3proxy), with the real core services on the in-memory store: where
 * each failure is reported, and which table the storage checks probe.
 */
class IntegrationValidatorTest {
  @RegisterExtension static final UnityDeltaUpstream upstream = new UnityDeltaUpstream();
  private static final Map<String, String> COLUMNS = Map.of("id", "long");

  private static IcebergRestFixture iceberg;
  private static DeltaSharingFixture sharing;

  private KvStore store;
  private ReconcileHarness h;
  private IntegrationValidator validator;

  @BeforeAll
  static void startUpstreams() throws Exception {
    iceberg = IcebergRestFixture.start(upstream.objects()).seed();
    sharing = DeltaSharingFixture.start();
  }

  @AfterAll
  static void stopUpstreams() throws Exception {
    sharing.close();
    iceberg.close();
  }

  @BeforeEach
  void world() {
    store = new EngineKvStore(InMemoryEngine.create());
    h = new ReconcileHarness(store, Clock.systemUTC());
    validator = new IntegrationValidator(h.adapter, h.clients, Clock.systemUTC(), 100);
  }

  @AfterEach
  void clean() {
    iceberg.vending().plan(location -> Vended.nothing());
    store.close();
  }

  // --- each failure in its own entry -----------------------------------------------------------

  @Test
  void anExpiredVendedCredentialFailsExpiryNotVending() {
    iceberg.vending().plan(location -> vendedSession(System.currentTimeMillis() - 60_000));
    ValidationReport report = validator.validate(h.account, icebergIntegration());
    assertThat(statuses(report)).containsExactly(
        Map.entry("connection", Status.OK), Map.entry("authentication", Status.OK),
        Map.entry("discovery", Status.OK), Map.entry("credential-vending", Status.OK),
        Map.entry("credential-expiry", Status.FAILED),
        Map.entry("credential-scope", Status.SKIPPED),
        Map.entry("storage-access", Status.SKIPPED));
    assertThat(check(report, ValidationCheck.CREDENTIAL_EXPIRY).code())
        .isEqualTo("CREDENTIAL_EXPIRED");
    assertThat(check(report, ValidationCheck.CREDENTIAL_SCOPE).message()).contains("expired");
    assertThat(report.ok()).isFalse();
  }

  @Test
  void anExpiredUnityCredentialFailsExpiryNotVending() {
    String id = upstream.unity().addTable("main", "stale", "events", "EXTERNAL", "DELTA",
        "s3://" + LAKE + "/stale/events", COLUMNS);
    upstream.unity().vending(id, UnityCatalogFixture.Vending.EXPIRED);
    ValidationReport report = validator.validate(h.account, unityIntegration("main"),
        table("events", "stale"));
    assertThat(check(report, ValidationCheck.CREDENTIAL_VENDING).status()).isEqualTo(Status.OK);
    assertThat(check(report, ValidationCheck.CREDENTIAL_EXPIRY).status())
        .isEqualTo(Status.FAILED);
    assertThat(check(report, ValidationCheck.CREDENTIAL_EXPIRY).code())
        .isEqualTo("CREDENTIAL_EXPIRED");
  }

  /**
   * Keys the store refuses fail the storage check: loading a Unity table reads its Delta log with
   * them, and against a real Unity server (0.6.0) wrong keys were reported as "credential-scope
   * failed: STORAGE_ACCESS_FAILED ... HTTP 403 SignatureDoesNotMatch", storage-access skipped.
   */
  @Test
  void unityKeysTheStoreRefusesFailStorageAccessNotScope() {
    String id = upstream.unity().addTable("main", "refused", "events", "EXTERNAL", "DELTA",
        "s3://" + LAKE + "/refused/events", COLUMNS);
    new DeltaLogWriter(upstream.s3(), LAKE).commitSchema("refused/events", 0, COLUMNS);
    upstream.unity().vending(id, UnityCatalogFixture.Vending.WRONG_KEYS);
    ValidationReport report = validator.validate(h.account, unityIntegration("main"),
        table("events", "refused"));
    assertThat(statuses(report)).containsExactly(
        Map.entry("connection", Status.OK), Map.entry("authentication", Status.OK),
        Map.entry("discovery", Status.OK), Map.entry("credential-vending", Status.OK),
        Map.entry("credential-expiry", Status.OK),
        Map.entry("credential-scope", Status.SKIPPED),
        Map.entry("storage-access", Status.FAILED));
    assertThat(check(report, ValidationCheck.STORAGE_ACCESS).code())
        .isEqualTo("STORAGE_ACCESS_FAILED");
    assertThat(check(report, ValidationCheck.STORAGE_ACCESS).message()).contains("403");
  }

  /**
   * A session the upstream states no expiry for (Unity's static session setting, seen on a real
   * Unity 0.6.0) is valid: it is fetched again on the refresh cadence, and the expiry check says
   * so instead of failing a working Integration.
   */
  @Test
  void aUnitySessionWithoutExpiryValidates() {
    String id = upstream.unity().addTable("main", "static", "events", "EXTERNAL", "DELTA",
        "s3://" + LAKE + "/static/events", COLUMNS);
    new DeltaLogWriter(upstream.s3(), LAKE).commitSchema("static/events", 0, COLUMNS);
    upstream.unity().vending(id, UnityCatalogFixture.Vending.NO_EXPIRY);
    ValidationReport report = validator.validate(h.account, unityIntegration("main"),
        table("events", "static"));
    assertThat(statuses(report)).containsExactly(
        Map.entry("connection", Status.OK), Map.entry("authentication", Status.OK),
        Map.entry("discovery", Status.OK), Map.entry("credential-vending", Status.OK),
        Map.entry("credential-expiry", Status.OK),
        Map.entry("credential-scope", Status.OK),
        Map.entry("storage-access", Status.OK));
    assertThat(check(report, ValidationCheck.CREDENTIAL_EXPIRY).message())
        .contains("no expiry");
    assertThat(report.ok()).isTrue();
  }

  // --- which table is probed -------------------------------------------------------------------

  @Test
  void unityFileTablesThatVendNothingArePassedOverForOneThatVends() {
    // as in Unity's shipped catalog: the first table in sort order is a file: table
    upstream.unity().addTable("shipped", "default", "a_marksheet", "MANAGED", "DELTA",
        "file:///tmp/unity/a_marksheet", COLUMNS);
    upstream.unity().addTable("shipped", "default", "events", "EXTERNAL", "DELTA",
        "s3://" + LAKE + "/shipped/events", COLUMNS);
    new DeltaLogWriter(upstream.s3(), LAKE).commitSchema("shipped/events", 0, COLUMNS);

    ValidationReport report = validator.validate(h.account, unityIntegration("shipped"));

    assertThat(report.ok()).as(report.toString()).isTrue();
    assertThat(report.probedTable()).isEqualTo(table("events", "default"));
    assertThat(report.skippedTables()).singleElement().satisfies(skipped -> {
      assertThat(skipped.table()).isEqualTo(table("a_marksheet", "default"));
      assertThat(skipped.code()).isEqualTo(CheckResult.NOT_VENDED);
    });
    assertThat(check(report, ValidationCheck.DISCOVERY).message()).contains("events")
        .contains("after 1 table(s)");
  }

  @Test
  void theSearchAsksAtMostFiveTablesAndSaysWhichItPassedOver() {
    for (int i = 1; i <= IntegrationValidator.MAX_PROBED_TABLES + 1; i++) {
      upstream.unity().addTable("crowded", "s", "t" + i, "MANAGED", "DELTA",
          "file:///tmp/unity/t" + i, COLUMNS);
    }
    upstream.unity().addTable("crowded", "s", "z_on_s3", "EXTERNAL", "DELTA",
        "s3://" + LAKE + "/crowded", COLUMNS);

    ValidationReport report = validator.validate(h.account, unityIntegration("crowded"));

    assertThat(report.ok()).isFalse();
    assertThat(report.probedTable()).isNull();
    assertThat(report.skippedTables()).extracting(s -> s.table().name())
        .containsExactly("t1", "t2", "t3", "t4", "t5");
    CheckResult vending = check(report, ValidationCheck.CREDENTIAL_VENDING);
    assertThat(vending.code()).isEqualTo(CheckResult.NOT_VENDED);
    assertThat(vending.message()).contains("t1 in namespace [s] (NOT_VENDED)")
        .contains("stopped after 5 tables");
    assertThat(check(report, ValidationCheck.CREDENTIAL_EXPIRY).status())
        .isEqualTo(Status.SKIPPED);
  }

  @Test
  void aDeltaSharingTableOfferingNoDirectoryAccessIsPassedOver() {
    String schema = "{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\","
        + "\"nullable\":true,\"metadata\":{}}]}";
    sharing.put("partners", "feeds", "a_url_only", new DeltaSharingFixture.Table("t-a",
        "s3://" + LAKE + "/shared/a", List.of("url"), 0, schema, false));
    sharing.put("partners", "feeds", "b_dir", new DeltaSharingFixture.Table("t-b",
        "s3://" + LAKE + "/shared/b", List.of("dir"), 0, schema, true));
    Integration spec = new Integration("sharing", IntegrationType.DELTA_SHARING,
        sharing.endpoint().toString(), Map.of(), new IntegrationAuthentication.Bearer(), 0);

    ValidationReport report = validator.validate(h.account,
        create(spec, Map.of("token", sharing.issueToken())));

    CatalogObjectRef b = new CatalogObjectRef(CatalogObjectKind.TABLE,
        NamespacePath.of("partners", "feeds"), "b_dir");
    assertThat(report.probedTable()).isEqualTo(b);
    assertThat(report.skippedTables()).singleElement()
        .satisfies(s -> assertThat(s.code()).isEqualTo("UNSUPPORTED"));
    assertThat(check(report, ValidationCheck.CREDENTIAL_VENDING).status()).isEqualTo(Status.OK);
  }

  @Test
  void aNamedProbeTableIsTheOnlyOneProbed() {
    iceberg.vending().plan(location -> location.contains("/sales/")
        ? vendedSession(System.currentTimeMillis() + 3_600_000) : Vended.nothing());
    String id = icebergIntegration();
    CatalogObjectRef orders = table("orders", "sales");

    ValidationReport named = validator.validate(h.account, id, orders);
    assertThat(named.ok()).as(named.toString()).isTrue();
    assertThat(named.probedTable()).isEqualTo(orders);
    assertThat(named.skippedTables()).isEmpty();

    // a named table that vends nothing is not swapped for another
    CatalogObjectRef campaigns = table("Campaigns", "Marketing");
    ValidationReport notVended = validator.validate(h.account, id, campaigns);
    assertThat(notVended.probedTable()).isEqualTo(campaigns);
    assertThat(check(notVended, ValidationCheck.CREDENTIAL_VENDING).code())
        .isEqualTo(CheckResult.NOT_VENDED);

    // without a name the search passes Marketing.Campaigns over and finds sales.orders
    ValidationReport searched = validator.validate(h.account, id);
    assertThat(searched.ok()).as(searched.toString()).isTrue();
    assertThat(searched.probedTable()).isEqualTo(orders);
    assertThat(searched.skippedTables()).extracting(SkippedTable::table).containsExactly(campaigns);
  }

  @Test
  void aNamedProbeTableThatDoesNotExistFailsDiscoveryByName() {
    String id = icebergIntegration();
    for (CatalogObjectRef missing : List.of(table("no_such_table", "sales"),
        table("orders", "no_such_namespace"))) {
      ValidationReport report = validator.validate(h.account, id, missing);
      CheckResult discovery = check(report, ValidationCheck.DISCOVERY);
      assertThat(discovery.status()).isEqualTo(Status.FAILED);
      assertThat(discovery.code()).isEqualTo(CheckResult.PROBE_TABLE_NOT_FOUND);
      assertThat(discovery.message()).contains(missing.name())
          .contains(missing.namespace().toString());
      assertThat(check(report, ValidationCheck.CREDENTIAL_VENDING).status())
          .isEqualTo(Status.SKIPPED);
      assertThat(report.probedTable()).isNull();
    }
  }

  // --- helpers ---------------------------------------------------------------------------------

  private static Vended vendedSession(long expiresAtMillis) {
    Map<String, String> session = new HashMap<>();
    session.put("s3.access-key-id", upstream.objects().accessKeyId());
    session.put("s3.secret-access-key", upstream.objects().secretAccessKey());
    session.put("s3.session-token", "validator-session-token");
    session.put("s3.session-token-expires-at-ms", Long.toString(expiresAtMillis));
    return new Vended(List.of(new StorageCredential(iceberg.warehouse(), session)), Map.of());
  }

  private String icebergIntegration() {
    Integration spec = new Integration("rest", IntegrationType.ICEBERG_REST,
        iceberg.uri().toString(), upstream.objects().s3Settings(),
        new IntegrationAuthentication.Bearer(), 0);
    return create(spec, Map.of("token", "t-rest"));
  }

  private String unityIntegration(String catalog) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(UnitySettings.CATALOG, catalog);
    properties.put(UnitySettings.S3_ENDPOINT, upstream.objects().endpoint().toString());
    properties.put(UnitySettings.S3_REGION, ObjectStoreFixture.REGION);
    properties.put(UnitySettings.S3_PATH_STYLE_ACCESS, "true");
    Integration spec = new Integration("unity-" + catalog, IntegrationType.UNITY,
        upstream.unity().uri().toString(), properties, new IntegrationAuthentication.Bearer(), 0);
    return create(spec, Map.of("token", "unity-token"));
  }

  private String create(Integration spec, Map<String, String> secrets) {
    return h.integrations.create(h.account, spec, new SecretValues(secrets),
        new CreateRequest(OnConflict.ERROR, null)).outcome().resource().id();
  }

  private static CatalogObjectRef table(String name, String... namespace) {
    return new CatalogObjectRef(CatalogObjectKind.TABLE, NamespacePath.of(namespace), name);
  }

  private static CheckResult check(ValidationReport report, ValidationCheck which) {
    return report.checks().get(which.ordinal());
  }

  private static Map<String, Status> statuses(ValidationReport report) {
    Map<String, Status> out = new LinkedHashMap<>();
    report.checks().forEach(c -> out.put(c.check().wireName(), c.status()));
    return out;
  }
}
