package io.icegate.overlay.validation;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.client.CatalogCapability;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.model.CatalogObjectKind;
import io.icegate.access.model.CatalogObjectRef;
import io.icegate.access.model.UpstreamTable;
import io.icegate.access.storage.VendedStorageCredentials;
import io.icegate.overlay.adapter.IntegrationAdapter;
import io.icegate.overlay.adapter.IntegrationClients;
import io.icegate.overlay.adapter.IntegrationConnection;
import io.icegate.overlay.validation.CheckResult.Status;
import io.icegate.overlay.validation.ProbeTableSearch.Probe;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Validates an Integration against its upstream catalog (seed 000 "Vended storage credentials"):
 * the catalog boundary (connection, authentication, discovery) and then the storage boundary
 * (vending, expiry, scope, storage access) for one upstream table, each failure in the entry of
 * the check it belongs to. Read-only upstream and here: nothing is persisted, vended credentials
 * stay in this call.
 *
 * <p>The table probed is the one the request names, or else the first table that answers for
 * itself in a sorted, bounded walk of the namespace tree ({@link ProbeTableSearch}): tables that
 * vend nothing are passed over and reported, at most {@link #MAX_PROBED_TABLES} are asked. An
 * upstream with no table, or none that vends, fails validation: vending that could not be verified
 * is never reported as success.
 */
public final class IntegrationValidator {
  /**
   * How many tables one validation asks for credentials at most when the request names none: a
   * catalog whose first tables all vend nothing is still found to vend, while a catalog that vends
   * for no table costs a handful of load-table calls, not one per table.
   */
  public static final int MAX_PROBED_TABLES = 5;

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
   * Runs every check against Integration {@code integrationId}, probing the table a search finds.
   *
   * @throws io.icegate.core.error.IcegateException NOT_FOUND when the Integration does not exist;
   *     every upstream or configuration failure is a failed check instead
   */
  public ValidationReport validate(String accountId, String integrationId) {
    return run(accountId, integrationId, null);
  }

  /**
   * Runs every check, probing upstream table {@code probeTable} and no other. A table that does
   * not exist upstream fails the discovery check with {@link CheckResult#PROBE_TABLE_NOT_FOUND}.
   *
   * @param probeTable a {@link CatalogObjectKind#TABLE} reference
   * @throws io.icegate.core.error.IcegateException NOT_FOUND when the Integration does not exist
   */
  public ValidationReport validate(String accountId, String integrationId,
      CatalogObjectRef probeTable) {
    if (probeTable.kind() != CatalogObjectKind.TABLE) {
      throw new IllegalArgumentException("only a table can be probed, not a " + probeTable.kind());
    }
    return run(accountId, integrationId, probeTable);
  }

  private ValidationReport run(String accountId, String integrationId, CatalogObjectRef named) {
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
      catalogBoundary(client, named, results);
    } catch (CatalogAccessException e) {
      // opening the client failed: the stored configuration is refused by the provider
      results.fail(ValidationCheck.CONNECTION, e);
    }
    ValidationReport report = results.report("an earlier check did not pass");
    LOG.info("validated integration {} of account {}: ok={}, probed table {}", integrationId,
        accountId, report.ok(), report.probedTable() == null ? "none"
            : report.probedTable().namespace() + " " + report.probedTable().name());
    return report;
  }

  private void catalogBoundary(CatalogClient client, CatalogObjectRef named, Results results) {
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
    Function<CatalogObjectRef, VendAttempt> vend =
        client.capabilities().supports(CatalogCapability.CREDENTIAL_VENDING)
            ? table -> VendAttempt.of(client, table)
            : table -> new VendAttempt.Unsupported();
    Probe probe = named == null ? search(client, vend, results)
        : named(client, named, vend, results);
    if (probe != null) {
      results.probed = probe.table();
      storageBoundary(client, probe, results);
    }
  }

  /** Searches for the table to probe; records the discovery check (and vending when none). */
  private Probe search(CatalogClient client, Function<CatalogObjectRef, VendAttempt> vend,
      Results results) {
    ProbeTableSearch search = new ProbeTableSearch(client, vend, maxNamespaces);
    Probe probe;
    try {
      probe = search.run();
    } catch (CatalogAccessException e) {
      results.skipped = search.skipped();
      results.fail(ValidationCheck.DISCOVERY, e);
      return null;
    }
    List<SkippedTable> skipped = search.skipped();
    results.skipped = skipped;
    String walked = search.topLevel() + " top-level namespace(s), " + search.searched()
        + " searched";
    if (probe != null) {
      results.ok(ValidationCheck.DISCOVERY, walked + "; table " + probe.table().name()
          + " in namespace " + probe.table().namespace() + " chosen for the storage checks"
          + (skipped.isEmpty() ? "" : " after " + skipped.size()
              + " table(s) that vend nothing (skippedTables)"));
      return probe;
    }
    if (skipped.isEmpty()) {
      results.ok(ValidationCheck.DISCOVERY, walked + ", no table");
      results.fail(ValidationCheck.CREDENTIAL_VENDING, CheckResult.NO_TABLE,
          "no table found upstream (searched " + maxNamespaces
              + " namespaces at most), so credential vending cannot be verified");
      return null;
    }
    results.ok(ValidationCheck.DISCOVERY, walked + "; " + skipped.size()
        + " table(s) asked for credentials");
    results.fail(ValidationCheck.CREDENTIAL_VENDING, sharedCode(skipped),
        "no table asked vended credentials: " + skipped.stream()
            .map(t -> t.table().name() + " in namespace " + t.table().namespace() + " ("
                + t.code() + ")")
            .collect(Collectors.joining(", "))
            + (search.tableBoundReached() ? "; stopped after " + MAX_PROBED_TABLES
                + " tables, name the table to probe in the request" : ""));
    return null;
  }

  /** The code every passed-over table gave, or {@link CheckResult#NOT_VENDED} when they differ. */
  private static String sharedCode(List<SkippedTable> skipped) {
    Set<String> codes = skipped.stream().map(SkippedTable::code).collect(Collectors.toSet());
    return codes.size() == 1 ? codes.iterator().next() : CheckResult.NOT_VENDED;
  }

  /** The table the request names, if it exists upstream; records the discovery check. */
  private static Probe named(CatalogClient client, CatalogObjectRef table,
      Function<CatalogObjectRef, VendAttempt> vend, Results results) {
    String what = "table " + table.name() + " in namespace " + table.namespace();
    try {
      boolean listed = client.listObjects(table.namespace(), Set.of(CatalogObjectKind.TABLE))
          .stream().anyMatch(found -> found.name().equals(table.name()));
      if (!listed) {
        results.fail(ValidationCheck.DISCOVERY, CheckResult.PROBE_TABLE_NOT_FOUND,
            "the probe table does not exist upstream: no " + what);
        return null;
      }
    } catch (CatalogAccessException e) {
      if (e.code() == Code.NOT_FOUND) {
        results.fail(ValidationCheck.DISCOVERY, CheckResult.PROBE_TABLE_NOT_FOUND,
            "the probe table does not exist upstream: namespace " + table.namespace()
                + " does not exist, so there is no " + what);
      } else {
        results.fail(ValidationCheck.DISCOVERY, e);
      }
      return null;
    }
    results.ok(ValidationCheck.DISCOVERY, what + ", named by the request, exists upstream");
    return new Probe(table, vend.apply(table));
  }

  private void storageBoundary(CatalogClient client, Probe probe, Results results) {
    CatalogObjectRef ref = probe.table();
    VendAttempt attempt = probe.attempt();
    if (attempt instanceof VendAttempt.Unsupported) {
      results.fail(ValidationCheck.CREDENTIAL_VENDING, CheckResult.VENDING_UNSUPPORTED,
          "the provider does not offer credential vending");
      return;
    }
    if (attempt instanceof VendAttempt.NotVended) {
      results.fail(ValidationCheck.CREDENTIAL_VENDING, CheckResult.NOT_VENDED,
          "the catalog vended no storage credentials for table " + ref.name() + " in namespace "
              + ref.namespace());
      return;
    }
    if (attempt instanceof VendAttempt.Failed failed) {
      vendingFailed(failed.failure(), results);
      return;
    }
    VendedStorageCredentials credentials = ((VendAttempt.Vended) attempt).credentials();
    results.ok(ValidationCheck.CREDENTIAL_VENDING,
        "the catalog vended credentials for prefix " + credentials.prefix());
    expiry(credentials, results);
    UpstreamTable table;
    try {
      table = client.loadTable(ref.namespace(), ref.name());
    } catch (CatalogAccessException e) {
      if (e.code() == Code.STORAGE_ACCESS_FAILED) {
        // Unity and Delta Sharing read the Delta log with the vended keys to load a table: a
        // read the store refused (wrong keys) is the storage check's, not the scope's
        results.skip(ValidationCheck.CREDENTIAL_SCOPE,
            "not checked: the table could not be loaded with the vended credentials");
        results.fail(ValidationCheck.STORAGE_ACCESS, e);
      } else {
        results.fail(ValidationCheck.CREDENTIAL_SCOPE, e);
      }
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
      storageFailed(e, results);
    }
  }

  /**
   * A vending answer that failed. Scope and expiry failures mean the catalog did vend: they belong
   * to their own checks, not to vending.
   */
  private static void vendingFailed(CatalogAccessException e, Results results) {
    switch (e.code()) {
      case CREDENTIAL_SCOPE_INVALID -> {
        results.ok(ValidationCheck.CREDENTIAL_VENDING, "the catalog vended credentials");
        results.skip(ValidationCheck.CREDENTIAL_EXPIRY, "no vended credential covers the table");
        results.fail(ValidationCheck.CREDENTIAL_SCOPE, e);
      }
      case CREDENTIAL_EXPIRED -> {
        results.ok(ValidationCheck.CREDENTIAL_VENDING, "the catalog vended credentials");
        results.fail(ValidationCheck.CREDENTIAL_EXPIRY, e);
        results.skip(ValidationCheck.CREDENTIAL_SCOPE,
            "not checked: the vended credentials expired");
        results.skip(ValidationCheck.STORAGE_ACCESS,
            "not attempted: the vended credentials expired");
      }
      default -> results.fail(ValidationCheck.CREDENTIAL_VENDING, e);
    }
  }

  /**
   * A storage read that failed. The provider checks expiry and scope again right before reading
   * (the credentials may expire in between, the metadata file may lie outside the vended prefix):
   * those failures belong to their own checks.
   */
  private static void storageFailed(CatalogAccessException e, Results results) {
    switch (e.code()) {
      case CREDENTIAL_EXPIRED -> {
        results.fail(ValidationCheck.CREDENTIAL_EXPIRY, e);
        results.skip(ValidationCheck.STORAGE_ACCESS,
            "not attempted: the vended credentials expired");
      }
      case CREDENTIAL_SCOPE_INVALID -> {
        results.fail(ValidationCheck.CREDENTIAL_SCOPE, e);
        results.skip(ValidationCheck.STORAGE_ACCESS,
            "not attempted: the vended credentials do not cover what must be read");
      }
      default -> results.fail(ValidationCheck.STORAGE_ACCESS, e);
    }
  }

  private void expiry(VendedStorageCredentials credentials, Results results) {
    Instant expiresAt = credentials.expiresAt();
    Instant now = clock.instant();
    if (expiresAt == null) {
      // the SPI permits it (a static session an administrator configured upstream): callers
      // fetch such credentials again on their cadence, so it is no failure
      results.ok(ValidationCheck.CREDENTIAL_EXPIRY, "the upstream states no expiry: the "
          + "credentials are fetched again every 15 minutes");
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

  /** Collects results; checks never reached become skipped. */
  private static final class Results {
    private final Map<ValidationCheck, CheckResult> byCheck = new EnumMap<>(ValidationCheck.class);
    private CatalogObjectRef probed;
    private List<SkippedTable> skipped = List.of();

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
      return new ValidationReport(all, probed, skipped);
    }
  }
}
