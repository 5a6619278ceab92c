package io.icegate.overlay.validation;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.client.CatalogCapability;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.model.CatalogObjectKind;
import io.icegate.access.model.CatalogObjectRef;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.model.UpstreamTable;
import io.icegate.access.storage.VendedStorageCredentials;
import io.icegate.overlay.adapter.IntegrationAdapter;
import io.icegate.overlay.adapter.IntegrationClients;
import io.icegate.overlay.adapter.IntegrationConnection;
import io.icegate.overlay.discovery.NamespaceOrder;
import io.icegate.overlay.validation.CheckResult.Status;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Validates an Integration against its upstream catalog (seed 000 "Vended storage credentials"):
 * the catalog boundary (connection, authentication, discovery) and then the storage boundary
 * (vending, expiry, scope, storage access) for one upstream table, each check its own entry.
 * Read-only upstream and here: nothing is persisted, vended credentials stay in this call.
 *
 * <p>The table vended for is the first table in a breadth-first walk of the namespace tree, in
 * sorted order, bounded by {@code maxNamespaces} listings, so repeated validations pick the same
 * table. An upstream with no table, or one that does not vend, fails validation: vending that
 * could not be verified is never reported as success.
 */
public final class IntegrationValidator {
  private static final Logger LOG = LoggerFactory.getLogger(IntegrationValidator.class);

  private final IntegrationAdapter adapter;
  private final IntegrationClients clients;
  private final Clock clock;
  private final int maxNamespaces;

  /**
   * @param maxNamespaces how many namespaces the search for a table may list (at least 1)
   */
  public IntegrationValidator(IntegrationAdapter adapter, IntegrationClients clients, Clock clock,
      int maxNamespaces) {
    this.adapter = Objects.requireNonNull(adapter, "adapter");
    this.clients = Objects.requireNonNull(clients, "clients");
    this.clock = Objects.requireNonNull(clock, "clock");
    if (maxNamespaces < 1) {
      throw new IllegalArgumentException("maxNamespaces must be at least 1");
    }
    this.maxNamespaces = maxNamespaces;
  }

  /**
   * Runs every check against Integration {@code integrationId}.
   *
   * @throws io.icegate.core.error.IcegateException NOT_FOUND when the Integration does not exist;
   *     every upstream or configuration failure is a failed check instead
   */
  public ValidationReport validate(String accountId, String integrationId) {
    Results results = new Results();
    IntegrationConnection connection;
    try {
      connection = adapter.resolve(accountId, integrationId);
    } catch (CatalogAccessException e) {
      results.skip(ValidationCheck.CONNECTION, "not attempted: the credentials cannot be used");
      results.fail(ValidationCheck.AUTHENTICATION, e);
      return results.report("the integration's credentials cannot be used");
    }
    try (CatalogClient client = clients.open(connection)) {
      catalogBoundary(client, results);
    } catch (CatalogAccessException e) {
      // opening the client failed: the stored configuration is refused by the provider
      results.fail(ValidationCheck.CONNECTION, e);
    }
    ValidationReport report = results.report("an earlier check did not pass");
    LOG.info("validated integration {} of account {}: ok={}", integrationId, accountId,
        report.ok());
    return report;
  }

  private void catalogBoundary(CatalogClient client, Results results) {
    try {
      client.validate();
      results.ok(ValidationCheck.CONNECTION, "the catalog endpoint answered");
      results.ok(ValidationCheck.AUTHENTICATION, "the catalog accepted the authentication");
    } catch (CatalogAccessException e) {
      if (e.code() == Code.AUTHENTICATION_FAILED || e.code() == Code.PERMISSION_DENIED) {
        results.ok(ValidationCheck.CONNECTION, "the catalog endpoint answered");
        results.fail(ValidationCheck.AUTHENTICATION, e);
      } else {
        results.fail(ValidationCheck.CONNECTION, e);
      }
      return;
    }
    Optional<CatalogObjectRef> table;
    try {
      table = firstTable(client, results);
    } catch (CatalogAccessException e) {
      results.fail(ValidationCheck.DISCOVERY, e);
      return;
    }
    if (table.isEmpty()) {
      results.fail(ValidationCheck.CREDENTIAL_VENDING, CheckResult.NO_TABLE,
          "no table found upstream (searched " + maxNamespaces
              + " namespaces at most), so credential vending cannot be verified");
      return;
    }
    storageBoundary(client, table.get(), results);
  }

  /** Breadth-first, sorted, bounded search for a table; records the discovery check. */
  private Optional<CatalogObjectRef> firstTable(CatalogClient client, Results results) {
    Deque<NamespacePath> queue = new ArrayDeque<>(sorted(client.listNamespaces(
        NamespacePath.root())));
    int listed = 0;
    int topLevel = queue.size();
    while (!queue.isEmpty() && listed < maxNamespaces) {
      NamespacePath namespace = queue.removeFirst();
      listed++;
      List<CatalogObjectRef> tables = new ArrayList<>(
          client.listObjects(namespace, Set.of(CatalogObjectKind.TABLE)));
      tables.sort(Comparator.comparing(CatalogObjectRef::name));
      if (!tables.isEmpty()) {
        CatalogObjectRef found = tables.get(0);
        results.ok(ValidationCheck.DISCOVERY, topLevel + " top-level namespace(s); table "
            + found.name() + " in namespace " + namespace + " chosen for the storage checks");
        return Optional.of(found);
      }
      queue.addAll(sorted(client.listNamespaces(namespace)));
    }
    results.ok(ValidationCheck.DISCOVERY, topLevel + " top-level namespace(s), " + listed
        + " searched, no table");
    return Optional.empty();
  }

  private void storageBoundary(CatalogClient client, CatalogObjectRef ref, Results results) {
    if (!client.capabilities().supports(CatalogCapability.CREDENTIAL_VENDING)) {
      results.fail(ValidationCheck.CREDENTIAL_VENDING, CheckResult.VENDING_UNSUPPORTED,
          "the provider does not offer credential vending");
      return;
    }
    Optional<VendedStorageCredentials> vended;
    try {
      vended = client.vendStorageCredentials(ref.namespace(), ref.name());
    } catch (CatalogAccessException e) {
      if (e.code() == Code.CREDENTIAL_SCOPE_INVALID) {
        results.ok(ValidationCheck.CREDENTIAL_VENDING, "the catalog vended credentials");
        results.skip(ValidationCheck.CREDENTIAL_EXPIRY, "no vended credential covers the table");
        results.fail(ValidationCheck.CREDENTIAL_SCOPE, e);
      } else {
        results.fail(ValidationCheck.CREDENTIAL_VENDING, e);
      }
      return;
    }
    if (vended.isEmpty()) {
      results.fail(ValidationCheck.CREDENTIAL_VENDING, CheckResult.NOT_VENDED,
          "the catalog vended no storage credentials for table " + ref.name() + " in namespace "
              + ref.namespace());
      return;
    }
    VendedStorageCredentials credentials = vended.get();
    results.ok(ValidationCheck.CREDENTIAL_VENDING,
        "the catalog vended credentials for prefix " + credentials.prefix());
    expiry(credentials, results);
    UpstreamTable table;
    try {
      table = client.loadTable(ref.namespace(), ref.name());
    } catch (CatalogAccessException e) {
      results.fail(ValidationCheck.CREDENTIAL_SCOPE, e);
      return;
    }
    if (!scope(table, credentials, results)) {
      return;
    }
    try {
      client.validateStorageAccess(table, credentials);
      results.ok(ValidationCheck.STORAGE_ACCESS,
          "the vended credentials read the table's metadata");
    } catch (CatalogAccessException e) {
      results.fail(ValidationCheck.STORAGE_ACCESS, e);
    }
  }

  private void expiry(VendedStorageCredentials credentials, Results results) {
    Instant expiresAt = credentials.expiresAt();
    Instant now = clock.instant();
    if (expiresAt == null) {
      results.fail(ValidationCheck.CREDENTIAL_EXPIRY, CheckResult.EXPIRY_MISSING,
          "the vended credentials report no expiry");
    } else if (!expiresAt.isAfter(now)) {
      results.fail(ValidationCheck.CREDENTIAL_EXPIRY, Code.CREDENTIAL_EXPIRED.name(),
          "the vended credentials expired at " + expiresAt);
    } else {
      results.ok(ValidationCheck.CREDENTIAL_EXPIRY, "expires at " + expiresAt + " (in "
          + Duration.between(now, expiresAt).toSeconds() + " s)");
    }
  }

  /**
   * Whether the vended prefix covers the table. Textual prefix comparison, like S3FileIO's own
   * choice of credentials (seed 001 explains why not path-strict).
   */
  private static boolean scope(UpstreamTable table, VendedStorageCredentials credentials,
      Results results) {
    String location = table.storageLocation() != null ? table.storageLocation()
        : table.metadataLocation();
    if (location == null) {
      results.fail(ValidationCheck.CREDENTIAL_SCOPE, CheckResult.NO_LOCATION,
          "the table exposes no storage location");
      return false;
    }
    if (!location.startsWith(credentials.prefix())) {
      results.fail(ValidationCheck.CREDENTIAL_SCOPE, Code.CREDENTIAL_SCOPE_INVALID.name(),
          "the vended prefix " + credentials.prefix() + " does not cover " + location);
      return false;
    }
    results.ok(ValidationCheck.CREDENTIAL_SCOPE,
        "the vended prefix " + credentials.prefix() + " covers " + location);
    return true;
  }

  private static List<NamespacePath> sorted(List<NamespacePath> namespaces) {
    List<NamespacePath> out = new ArrayList<>(namespaces);
    out.sort(NamespaceOrder.INSTANCE);
    return out;
  }

  /** Collects results; checks never reached become skipped. */
  private static final class Results {
    private final Map<ValidationCheck, CheckResult> byCheck = new EnumMap<>(ValidationCheck.class);

    void ok(ValidationCheck check, String message) {
      byCheck.put(check, CheckResult.ok(check, message));
    }

    void fail(ValidationCheck check, String code, String message) {
      byCheck.put(check, CheckResult.failed(check, code, message));
    }

    void fail(ValidationCheck check, CatalogAccessException e) {
      fail(check, e.code().name(), e.getMessage());
    }

    void skip(ValidationCheck check, String message) {
      byCheck.put(check, CheckResult.skipped(check, message));
    }

    ValidationReport report(String skippedBecause) {
      List<CheckResult> all = new ArrayList<>();
      for (ValidationCheck check : ValidationCheck.values()) {
        all.add(byCheck.getOrDefault(check,
            new CheckResult(check, Status.SKIPPED, null, "skipped: " + skippedBecause)));
      }
      return new ValidationReport(all);
    }
  }
}
