package io.icegate.overlay.store.validation;

import io.icegate.admin.model.IntegrationAuthentication;
import io.icegate.admin.model.IntegrationType;
import io.icegate.core.credential.CredentialPublication;
import io.icegate.core.credential.CredentialStore;
import io.icegate.core.credential.CredentialedWrites;
import io.icegate.core.credential.MasterKey;
import io.icegate.core.credential.SecretValues;
import io.icegate.core.durability.CreateRequest;
import io.icegate.core.durability.IdempotencySettings;
import io.icegate.core.durability.IdempotentCreates;
import io.icegate.core.integration.IntegrationService;
import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.Integration;
import io.icegate.core.model.Namespace;
import io.icegate.core.model.Provenance;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.Table;
import io.icegate.core.overlay.ContributionRetirement;
import io.icegate.core.overlay.OverlayService;
import io.icegate.core.repo.Repositories;
import io.icegate.overlay.store.capture.CaptureOutcome;
import io.icegate.overlay.store.capture.CapturePointer;
import io.icegate.overlay.store.capture.Captures;
import io.icegate.overlay.store.claim.NamespaceClaims;
import io.icegate.overlay.store.relation.ManagedRelations;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An account with a Catalog, an Integration, an Overlay claiming namespace "sales", managed
 * Tables in it (stored the way reconciliation stores them) and their captures: what validation
 * publishes against, without an upstream. Public for the admin API's HTTP mapping tests.
 */
public final class ManagedTableSetup {
  private final Repositories repos;
  private final ManagedRelations managed = new ManagedRelations();
  public final String account;
  public final String catalogId;
  public final String integrationId;
  public final String overlayId;
  public final String namespaceId;
  /** The account's credential store: account deletion needs its cleanup step. */
  public final CredentialStore credentials;

  public ManagedTableSetup(Repositories repos, Clock clock) {
    this.repos = repos;
    account = repos.accounts().create(new Account("acme")).id();
    catalogId = repos.catalogs(account).create(new Catalog("prod", "file:/w", Map.of())).id();
    credentials = new CredentialStore(repos.store(), MasterKey.of(new byte[32]), clock);
    IdempotentCreates creates = new IdempotentCreates(repos, clock, IdempotencySettings.DEFAULT);
    IntegrationService integrations = new IntegrationService(repos,
        new CredentialedWrites(new CredentialPublication(credentials), creates), credentials,
        host -> { }); // address rules are not what these tests are about
    integrationId = integrations.create(account, new Integration("up",
            IntegrationType.ICEBERG_REST, "https://c.example.com/v1", Map.of(),
            new IntegrationAuthentication.Bearer(), 0),
        new SecretValues(Map.of("token", "t")), CreateRequest.plain()).outcome().resource().id();
    overlayId = new OverlayService(repos, creates, ContributionRetirement.NONE).create(account,
        new CatalogOverlay("o", integrationId, catalogId, List.of(), List.of()),
        CreateRequest.plain()).outcome().resource().id();
    namespaceId = repos.namespaces(account)
        .create(new Namespace(catalogId, List.of("sales"), Map.of())).id();
    repos.store().run(tx -> {
      new NamespaceClaims().claim(tx, account, namespaceId, overlayId, false);
      return null;
    });
  }

  /** A managed Iceberg table {@code sales.name}, as reconciliation publishes it. */
  public Resource<Table> managedTable(String name) {
    return managedTable(name, "ICEBERG");
  }

  public Resource<Table> managedTable(String name, String format) {
    byte[] definition = ("{\"table\":\"" + name + "\"}").getBytes(StandardCharsets.UTF_8);
    Provenance provenance = new Provenance(integrationId, overlayId, "uuid-" + name, true,
        List.of("sales"), name, format, "s3://b/sales/" + name + "/metadata/00001.json",
        ManagedRelations.digest(definition));
    return repos.store().run(tx -> {
      Resource<Table> created = repos.tables(account).create(tx,
          new Table(catalogId, List.of("sales"), name, null, Map.of(), provenance));
      managed.writeDefinition(tx, account, ResourceKind.TABLE, created.id(), definition);
      managed.index(tx, account, overlayId, ResourceKind.TABLE, "uuid-" + name, created.id());
      return created;
    });
  }

  /** A local table {@code sales.name}. */
  public Resource<Table> localTable(String name) {
    return repos.tables(account).create(new Table(catalogId, List.of("sales"), name,
        "s3://b/local/" + name + "/metadata/00001.json", Map.of()));
  }

  /** Captures {@code tableId} again (a new upstream metadata location): the new pointer. */
  public CapturePointer capture(String tableId) {
    Captures captures = new Captures(repos);
    Optional<CapturePointer> before = captures.pointer(account, tableId);
    long next = before.map(CapturePointer::captureGeneration).orElse(0L) + 1;
    CaptureOutcome outcome = captures.publish(account, overlayId, tableId, before,
        "s3://b/metadata/" + tableId + "-" + next + ".json",
        ("{\"capture\":" + next + "}").getBytes(StandardCharsets.UTF_8), tx -> { });
    return ((CaptureOutcome.Captured) outcome).pointer();
  }

  /** {@code count} error records of {@code table}, messages tagged with {@code tag}. */
  public static List<ValidationError> errors(Resource<Table> table, String tag, int count) {
    List<ValidationError> errors = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      errors.add(new ValidationError(table.id(), "sales." + table.spec().name(), "ICEBERG",
          "s3://b/data/" + tag + "-" + i + ".parquet", tag + " #" + i));
    }
    return errors;
  }
}
