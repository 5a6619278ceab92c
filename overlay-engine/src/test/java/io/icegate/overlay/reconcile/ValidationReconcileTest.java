package io.icegate.overlay.reconcile;

import static io.icegate.overlay.reconcile.ReconcileCount.CAPTURED;
import static io.icegate.overlay.reconcile.ReconcileCount.VALIDATED;
import static io.icegate.overlay.reconcile.ReconcileCount.VALIDATION_FAILED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.access.iceberg.fixture.CredentialVendingFilter;
import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.admin.model.IntegrationAuthentication;
import io.icegate.admin.model.IntegrationType;
import io.icegate.core.credential.SecretValues;
import io.icegate.core.durability.CreateRequest;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Integration;
import io.icegate.core.model.Resource;
import io.icegate.core.model.Table;
import io.icegate.core.paging.PageRequest;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.OnConflict;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.testing.HookedStore;
import io.icegate.core.testing.MutableClock;
import io.icegate.overlay.store.testing.ContributionInvariants;
import io.icegate.overlay.store.validation.TableValidations;
import io.icegate.overlay.store.validation.ValidationError;
import io.icegate.overlay.store.validation.ValidationState;
import io.icegate.overlay.store.validation.ValidationStatus;
import io.icegate.overlay.store.validation.Visibility;
import io.icegate.overlay.tablevalidation.TableRevalidation;
import io.icegate.overlay.tablevalidation.TableValidator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericAppenderFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;

/**
 * Validation after capture (issue 10) against the real upstream Iceberg REST fixture and a real
 * S3 object store (s3proxy), with real Parquet files written through iceberg-core: a reconcile
 * validates before it reports, tables whose files are fine become visible, a missing file is one
 * error record and hides the table, the upstream's fix then a reconcile (or a revalidation)
 * retires the errors; with nothing vended a table with files fails and one without snapshots
 * still validates clean.
 */
class ValidationReconcileTest {
  private static final AtomicInteger NAMES = new AtomicInteger();
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "name", Types.StringType.get()));
  private static ObjectStoreFixture objects;
  private static IcebergRestFixture upstream;

  private KvStore store;
  private HookedStore hooks;
  private ReconcileHarness h;
  private TableValidations validations;
  private String ns;

  @BeforeAll
  static void startUpstream() throws Exception {
    objects = ObjectStoreFixture.startS3Proxy();
    upstream = IcebergRestFixture.start(objects);
  }

  @AfterAll
  static void stopUpstream() throws Exception {
    upstream.vending().plan(location -> CredentialVendingFilter.Vended.nothing());
    upstream.close();
    objects.close();
  }

  @BeforeEach
  void world() {
    hooks = new HookedStore(new EngineKvStore(InMemoryEngine.create()));
    store = hooks;
    h = new ReconcileHarness(store, MutableClock.start());
    validations = new TableValidations(h.repos);
    ns = "val" + NAMES.incrementAndGet();
    upstream.backingCatalog().createNamespace(Namespace.of(ns));
    upstream.vending().plan(location -> upstream.storeKeysAsSession());
  }

  @AfterEach
  void clean() {
    ContributionInvariants.checker(store).assertClean();
    store.close();
  }

  @Test
  void fineFilesValidateAndAMissingFileFailsUntilTheUpstreamFixesIt() {
    upstream.backingCatalog().createTable(TableIdentifier.of(ns, "empty"), SCHEMA);
    upstream.backingCatalog().createTable(TableIdentifier.of(ns, "good"), SCHEMA);
    upstream.backingCatalog().createTable(TableIdentifier.of(ns, "broken"), SCHEMA);
    append("good", 3);
    append("good", 2);
    DataFile lost = append("broken", 4);
    append("broken", 1);
    deleteObject(lost.location());

    String catalog = h.catalog("c");
    String overlay = h.overlay("o", integration(), catalog, List.of(List.of(ns)));
    ReconcileReport report = h.reconcile(overlay);
    assertThat(report.count(CAPTURED)).isEqualTo(3);
    assertThat(report.count(VALIDATED)).as(report.toString()).isEqualTo(2);
    assertThat(report.count(VALIDATION_FAILED)).isEqualTo(1);
    assertThat(report.warnings()).anyMatch(w -> w.contains(ns + ".broken")
        && w.contains("1 validation error"));

    Resource<Table> good = table(catalog, "good");
    Resource<Table> broken = table(catalog, "broken");
    assertThat(visibility(good)).isEqualTo(Visibility.VISIBLE);
    assertThat(visibility(table(catalog, "empty"))).isEqualTo(Visibility.VISIBLE);
    assertThat(visibility(broken)).isEqualTo(new Visibility.Failed(1));
    ValidationStatus failed = validations.status(h.account, broken.id()).orElseThrow();
    assertThat(failed.state()).isEqualTo(ValidationState.FAILED);
    List<ValidationError> errors =
        validations.errors(h.account, broken.id(), PageRequest.first()).items();
    assertThat(errors).hasSize(1);
    assertThat(errors.get(0).filePath()).isEqualTo(lost.location());
    assertThat(errors.get(0).displayPath()).isEqualTo(ns + ".broken");
    assertThat(errors.get(0).tableFormat()).isEqualTo("ICEBERG");
    assertThat(errors.get(0).message()).contains("does not exist");

    // an unchanged upstream: nothing captured, nothing validated again
    ReconcileReport again = h.reconcile(overlay);
    assertThat(again.count(VALIDATED) + again.count(VALIDATION_FAILED)).isZero();

    // the upstream drops the lost file in a new commit: the next reconcile validates it clean and
    // retires the error record
    try (RESTCatalog client = upstream.newClient()) {
      client.loadTable(TableIdentifier.of(ns, "broken")).newDelete().deleteFile(lost.location())
          .commit();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ReconcileReport fixed = h.reconcile(overlay);
    assertThat(fixed.count(CAPTURED)).isEqualTo(1);
    assertThat(fixed.count(VALIDATED)).isEqualTo(1);
    assertThat(visibility(table(catalog, "broken"))).isEqualTo(Visibility.VISIBLE);
    ValidationStatus valid = validations.status(h.account, broken.id()).orElseThrow();
    assertThat(valid.state()).isEqualTo(ValidationState.VALID);
    assertThat(valid.captureGeneration()).isEqualTo(2);
    assertThat(errorRecords()).isZero();
  }

  @Test
  void nothingVendedFailsATableWithFilesButNotOneWithoutSnapshots() {
    upstream.vending().plan(location -> CredentialVendingFilter.Vended.nothing());
    upstream.backingCatalog().createTable(TableIdentifier.of(ns, "empty"), SCHEMA);
    upstream.backingCatalog().createTable(TableIdentifier.of(ns, "data"), SCHEMA);
    append("data", 2);
    String catalog = h.catalog("c");
    String overlay = h.overlay("o", integration(), catalog, List.of(List.of(ns)));
    ReconcileReport report = h.reconcile(overlay);
    assertThat(report.count(VALIDATED)).isEqualTo(1);
    assertThat(report.count(VALIDATION_FAILED)).isEqualTo(1);
    Resource<Table> data = table(catalog, "data");
    assertThat(visibility(table(catalog, "empty")).visible()).isTrue();
    assertThat(visibility(data).visible()).isFalse();
    List<ValidationError> errors =
        validations.errors(h.account, data.id(), PageRequest.first()).items();
    assertThat(errors).singleElement().satisfies(e ->
        assertThat(e.message()).contains("vended no storage credentials"));

    // the upstream starts vending; a revalidation (no upstream commit) makes it visible
    upstream.vending().plan(location -> upstream.storeKeysAsSession());
    TableValidator.Outcome.Published published = revalidation()
        .revalidateTable(h.account, catalog, data.id());
    assertThat(published.status().state())
        .as(validations.errors(h.account, data.id(), PageRequest.first()).items().toString())
        .isEqualTo(ValidationState.VALID);
    assertThat(visibility(data)).isEqualTo(Visibility.VISIBLE);
    assertThat(errorRecords()).isZero();
  }

  @Test
  void aRevalidationRacingACredentialRotationIsNotPublished() {
    upstream.vending().plan(location -> CredentialVendingFilter.Vended.nothing());
    upstream.backingCatalog().createTable(TableIdentifier.of(ns, "data"), SCHEMA);
    append("data", 2);
    String catalog = h.catalog("c");
    String integration = integration();
    h.reconcile(h.overlay("o", integration, catalog, List.of(List.of(ns))));
    Resource<Table> data = table(catalog, "data");
    ValidationStatus before = validations.status(h.account, data.id()).orElseThrow();

    // the revalidation has read the Integration; a rotation commits before it publishes
    upstream.vending().plan(location -> upstream.storeKeysAsSession());
    hooks.beforeWrite(1, () -> h.integrations.rotate(h.account, integration,
        ExpectedGeneration.any(), new IntegrationAuthentication.Bearer(),
        new SecretValues(Map.of("token", "rotated"))));
    assertThatThrownBy(() -> revalidation().revalidateTable(h.account, catalog, data.id()))
        .isInstanceOfSatisfying(IcegateException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.VALIDATION_NOT_PUBLISHED));
    assertThat(hooks.fired()).isEqualTo(1);
    assertThat(validations.status(h.account, data.id())).contains(before);

    // asked again, it validates with the Integration as it now is
    assertThat(revalidation().revalidateTable(h.account, catalog, data.id()).status().state())
        .isEqualTo(ValidationState.VALID);
  }

  /**
   * The upstream as an Integration whose connection names the object store's endpoint, region
   * and path style (non-secret settings; the keys only ever come vended).
   */
  private String integration() {
    Integration spec = new Integration("up", IntegrationType.ICEBERG_REST,
        upstream.uri().toString(), objects.s3Settings(), new IntegrationAuthentication.Bearer(), 0);
    return h.integrations.create(h.account, spec, new SecretValues(Map.of("token", "t")),
        new CreateRequest(OnConflict.ERROR, null)).outcome().resource().id();
  }

  private TableRevalidation revalidation() {
    return new TableRevalidation(h.repos, h.adapter, h.clients, h.overlays,
        new TableValidator(h.repos, OutboundAddressPolicy.defaults(), false, 2));
  }

  private Resource<Table> table(String catalog, String name) {
    @SuppressWarnings("unchecked")
    Resource<Table> table = (Resource<Table>) h.relations(catalog).get(ns + "." + name);
    return table;
  }

  private Visibility visibility(Resource<Table> table) {
    return store.read(tx -> validations.visibility(tx, h.account,
        h.repos.tables(h.account).get(tx, table.id()).orElseThrow()));
  }

  private long errorRecords() {
    return store.read(tx -> {
      List<Long> count = new ArrayList<>();
      for (var kv : tx.getRange(KeySubspace.VALIDATIONS.range().begin,
          KeySubspace.VALIDATIONS.range().end)) {
        if (KeySubspace.VALIDATIONS.unpack(kv.key()).getString(2).equals("errors")) {
          count.add(1L);
        }
      }
      return (long) count.size();
    });
  }

  /** One upstream commit appending a real Parquet file of {@code rows} rows to {@code ns.name}. */
  private DataFile append(String name, int rows) {
    try (RESTCatalog client = upstream.newClient()) {
      org.apache.iceberg.Table table = client.loadTable(TableIdentifier.of(ns, name));
      String path = table.location() + "/data/" + UUID.randomUUID() + ".parquet";
      DataFile file = write(table.io().newOutputFile(path), path, rows);
      table.newAppend().appendFile(file).commit();
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static DataFile write(OutputFile out, String path, int rows) {
    FileAppender<Record> appender =
        new GenericAppenderFactory(SCHEMA).newAppender(out, FileFormat.PARQUET);
    try (appender) {
      for (int i = 0; i < rows; i++) {
        Record row = GenericRecord.create(SCHEMA);
        row.setField("id", (long) i);
        row.setField("name", "row-" + i);
        appender.add(row);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return DataFiles.builder(PartitionSpec.unpartitioned()).withPath(path)
        .withFormat(FileFormat.PARQUET).withFileSizeInBytes(appender.length())
        .withMetrics(appender.metrics()).build();
  }

  private static void deleteObject(String location) {
    URI uri = URI.create(location);
    try (var s3 = objects.newClient()) {
      s3.deleteObject(DeleteObjectRequest.builder().bucket(uri.getHost())
          .key(uri.getPath().substring(1)).build());
    }
  }
}
