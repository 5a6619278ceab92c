package io.icegate.gateway.vending;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.storage.VendedStorageCredentials;
import io.icegate.core.model.Integration;
import io.icegate.core.model.Provenance;
import io.icegate.core.model.Resource;
import io.icegate.core.model.Table;
import io.icegate.overlay.adapter.IntegrationAdapter;
import io.icegate.overlay.adapter.IntegrationClients;
import io.icegate.overlay.adapter.IntegrationConnection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.credentials.ImmutableCredential;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The managed-table {@link TableCredentialSource}: storage credentials vended by the upstream
 * catalog through the table's Integration (issue 10, "Reading through the gateway"; seed 001's
 * vending rules, applied by the provider's {@link CatalogClient#vendStorageCredentials}), for the
 * upstream path in the table's {@link Provenance}. Only what the upstream vends is handed out,
 * as one {@code storage-credentials} entry (the vended prefix; the vended keys, session token and
 * expiry plus the Integration's non-secret storage settings: endpoint, region, path-style access).
 *
 * <p>Nothing vended, or nothing usable, is a 403 saying so, on load-table as on the credentials
 * route: the upstream is the only possible source for a managed table's storage (never the
 * Integration's catalog credentials, a Catalog's storage keys or the server's), so an answer
 * without credentials would only move the failure to the client's first read of the object
 * store, without the reason.
 *
 * <p>Read-only where the protocol can ask for it: the provider asks for read access when its
 * protocol has the notion (Unity Catalog's temporary table credentials take {@code READ}); Iceberg
 * REST gives a client no way to ask, so the upstream's own scoping applies and the gateway never
 * widens it.
 *
 * <p>Cached in process memory only, per table and Integration configuration generation (an
 * Integration whose URI, properties or credentials changed is asked afresh), until shortly before
 * expiry: {@link #RENEWAL_MARGIN} before it, or half the credential's lifetime when that is
 * shorter, so a client is never handed a credential about to lapse. A credential without a
 * reported expiry is fetched again every {@link #NO_EXPIRY_CADENCE}. Failures are not cached.
 * Nothing here is persisted or logged; {@link Vended#toString()} names no secret.
 */
public final class ManagedTableCredentials implements TableCredentialSource {
  private static final Logger LOG = LoggerFactory.getLogger(ManagedTableCredentials.class);

  /** A credential without a reported expiry is fetched again this often. */
  public static final Duration NO_EXPIRY_CADENCE = Duration.ofMinutes(15);

  /**
   * A cached credential is replaced this long before it expires (at most half its lifetime).
   * Iceberg's S3FileIO refreshes through the credentials route 5 minutes before expiry; a longer
   * margin means a refresh never receives a session already inside its refresh window.
   */
  public static final Duration RENEWAL_MARGIN = Duration.ofMinutes(10);

  /** The region property of providers that take it under this name (Unity Catalog). */
  private static final String PROVIDER_REGION = "s3.region";

  /** Non-secret connection properties the client needs to reach the storage (endpoint, ...). */
  private static final List<String> STORAGE_SETTINGS = List.of(
      VendedStorageCredentials.S3_ENDPOINT,
      VendedStorageCredentials.S3_REGION,
      VendedStorageCredentials.S3_PATH_STYLE_ACCESS);

  /**
   * What a delegated load hands out for one managed table.
   *
   * @param credentials the upstream's vended credentials (secret)
   * @param storageSettings the Integration's non-secret storage settings ({@code s3.endpoint},
   *     {@code client.region}, {@code s3.path-style-access}), empty when it has none
   * @param usableUntil when this answer stops being handed out (before the credential's expiry)
   */
  public record Vended(
      VendedStorageCredentials credentials, Map<String, String> storageSettings,
      Instant usableUntil) {
    public Vended {
      Objects.requireNonNull(credentials, "credentials");
      storageSettings = Map.copyOf(storageSettings);
      Objects.requireNonNull(usableUntil, "usableUntil");
    }

    @Override
    public String toString() {
      return "Vended[" + credentials + ", storageSettings=" + storageSettings.keySet()
          + ", usableUntil=" + usableUntil + "]";
    }
  }

  private record Key(String accountId, String tableId, String integrationId,
      long integrationConfigurationGeneration, List<String> upstreamNamespace,
      String upstreamName) {}

  private final IntegrationAdapter adapter;
  private final IntegrationClients clients;
  private final Clock clock;
  private final Cache<Key, Vended> cache;

  /** @param maxEntries tables whose credentials are kept (least recently used are dropped) */
  public ManagedTableCredentials(
      IntegrationAdapter adapter, IntegrationClients clients, Clock clock, long maxEntries) {
    this.adapter = Objects.requireNonNull(adapter, "adapter");
    this.clients = Objects.requireNonNull(clients, "clients");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.cache = Caffeine.newBuilder()
        .maximumSize(maxEntries)
        .expireAfter(new Expiry<Key, Vended>() {
          @Override
          public long expireAfterCreate(Key key, Vended vended, long now) {
            return Math.max(1, Duration.between(clock.instant(), vended.usableUntil()).toNanos());
          }

          @Override
          public long expireAfterUpdate(Key key, Vended vended, long now, long remaining) {
            return expireAfterCreate(key, vended, now);
          }

          @Override
          public long expireAfterRead(Key key, Vended vended, long now, long remaining) {
            return remaining;
          }
        })
        .build();
  }

  /**
   * Credentials for {@code request}'s managed table, as {@link #forTable}; {@code request.access()}
   * is not narrowed further (see the class comment).
   *
   * @throws ForbiddenException as {@link #forTable}: this source never answers {@link
   *     VendingOutcome.NotVended}
   * @throws ServiceUnavailableException as {@link #forTable}
   */
  @Override
  public VendingOutcome credentials(CredentialRequest request) {
    if (!request.managed()) {
      throw new IllegalArgumentException("table " + request.identifier() + " is not managed");
    }
    Vended vended = forTable(request.table());
    Map<String, String> config = new LinkedHashMap<>(vended.storageSettings());
    config.putAll(vended.credentials().properties());
    Credential credential = ImmutableCredential.builder()
        .prefix(vended.credentials().prefix())
        .config(config)
        .build();
    return new VendingOutcome.Vended(List.of(credential), vended.credentials().expiresAt());
  }

  /**
   * Credentials for managed table {@code table}: the cached ones while usable, else fresh ones
   * from the upstream.
   *
   * @throws ForbiddenException when the upstream vends nothing for the table, or nothing usable
   *     (no credential covering the table location, an incomplete one, ...), or refuses the call
   * @throws ServiceUnavailableException when the upstream cannot be reached or fails transiently
   * @throws IllegalArgumentException when {@code table} is not managed
   */
  public Vended forTable(Resource<Table> table) {
    Provenance provenance = table.spec().provenance();
    if (provenance == null) {
      throw new IllegalArgumentException("table " + table.id() + " is not managed");
    }
    Resource<Integration> integration =
        adapter.integration(table.accountId(), provenance.integrationId());
    Key key = new Key(table.accountId(), table.id(), integration.id(),
        integration.configurationGeneration(), provenance.upstreamNamespace(),
        provenance.upstreamName());
    Vended cached = cache.getIfPresent(key);
    if (cached != null && clock.instant().isBefore(cached.usableUntil())) {
      return cached;
    }
    Vended fresh = fetch(table, provenance);
    cache.put(key, fresh);
    return fresh;
  }

  private Vended fetch(Resource<Table> table, Provenance provenance) {
    String path = provenance.upstreamDisplayPath();
    try {
      IntegrationConnection connection =
          adapter.resolve(table.accountId(), provenance.integrationId());
      Optional<VendedStorageCredentials> vended;
      try (CatalogClient client = clients.open(connection)) {
        vended = client.vendStorageCredentials(
            new NamespacePath(provenance.upstreamNamespace()), provenance.upstreamName());
      }
      if (vended.isEmpty()) {
        throw new ForbiddenException("the upstream catalog of Integration %s vends no storage "
            + "credentials for table %s; icegate hands out no other credentials",
            provenance.integrationId(), path);
      }
      Map<String, String> settings = new LinkedHashMap<>();
      for (String name : STORAGE_SETTINGS) {
        String value = connection.config().properties().get(name);
        if (value != null) {
          settings.put(name, value);
        }
      }
      // Providers that take the region as s3.region (Unity Catalog): clients read client.region
      String region = connection.config().properties().get(PROVIDER_REGION);
      if (region != null) {
        settings.putIfAbsent(VendedStorageCredentials.S3_REGION, region);
      }
      return new Vended(vended.get(), settings,
          usableUntil(clock.instant(), vended.get().expiresAt()));
    } catch (CatalogAccessException e) {
      if (e.retryable()) {
        // An expected outage: one warning line without a trace; the client gets the reason
        // (the access code, not the upstream's own text) instead of "internal error".
        LOG.warn("storage credentials for table {} unavailable from the upstream catalog of "
            + "Integration {} ({}): {}", path, provenance.integrationId(), e.code(),
            e.getMessage());
        throw new CredentialsUnavailableException(
            "storage credentials for table %s are unavailable from the upstream catalog of "
                + "Integration %s (%s); retry later", path, provenance.integrationId(), e.code());
      }
      throw new ForbiddenException("the upstream catalog of Integration %s vended no usable "
          + "storage credentials for table %s (%s): %s", provenance.integrationId(), path,
          e.code(), e.getMessage());
    }
  }

  /**
   * Until when a credential fetched at {@code now} and expiring at {@code expiresAt} ({@code
   * null}: no expiry reported) is handed out: {@link #RENEWAL_MARGIN} before expiry, or half the
   * remaining lifetime when that is shorter; {@link #NO_EXPIRY_CADENCE} after {@code now} without
   * an expiry.
   */
  static Instant usableUntil(Instant now, Instant expiresAt) {
    if (expiresAt == null) {
      return now.plus(NO_EXPIRY_CADENCE);
    }
    Duration half = Duration.between(now, expiresAt).dividedBy(2);
    return expiresAt.minus(RENEWAL_MARGIN.compareTo(half) < 0 ? RENEWAL_MARGIN : half);
  }
}
