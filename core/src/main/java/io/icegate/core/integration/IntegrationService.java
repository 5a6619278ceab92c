package io.icegate.core.integration;

import io.icegate.admin.model.IntegrationAuthentication;
import io.icegate.admin.model.IntegrationType;
import io.icegate.core.credential.CredentialStore;
import io.icegate.core.credential.CredentialedWrites;
import io.icegate.core.credential.SecretValues;
import io.icegate.core.durability.CreateRequest;
import io.icegate.core.durability.FencedView;
import io.icegate.core.durability.IdempotentResult;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.jobs.JobCleanup;
import io.icegate.core.model.Integration;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.paging.Page;
import io.icegate.core.paging.PageRequest;
import io.icegate.core.repo.ChangeKind;
import io.icegate.core.repo.DependentNames;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.Listing;
import io.icegate.core.repo.Repositories;
import io.icegate.core.repo.ResourceRepository;
import io.icegate.core.repo.SpecChange;
import io.icegate.core.store.ReadConsistency;
import java.net.URI;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * CatalogIntegrations (seed 000, "Catalog integration"): create with write-only credentials, get,
 * list, update of name/URI/properties, credential rotation, delete. Every write checks the
 * connection boundary (seed 001), the outbound address policy and the per-type authentication
 * compatibility before anything is stored.
 */
public final class IntegrationService {
  /** Connection checks of one PATCH before concurrent writes are taken to be contention. */
  private static final int CHECK_ATTEMPTS = 5;
  private final Repositories repositories;
  private final CredentialedWrites writes;
  private final CredentialStore credentials;
  private final UpstreamAddressCheck addresses;
  private final ConnectionSettingsCheck settings;

  /** A service checking no provider-specific property values. */
  public IntegrationService(Repositories repositories, CredentialedWrites writes,
      CredentialStore credentials, UpstreamAddressCheck addresses) {
    this(repositories, writes, credentials, addresses, ConnectionSettingsCheck.NONE);
  }

  public IntegrationService(Repositories repositories, CredentialedWrites writes,
      CredentialStore credentials, UpstreamAddressCheck addresses,
      ConnectionSettingsCheck settings) {
    this.repositories = Objects.requireNonNull(repositories, "repositories");
    this.writes = Objects.requireNonNull(writes, "writes");
    this.credentials = Objects.requireNonNull(credentials, "credentials");
    this.addresses = Objects.requireNonNull(addresses, "addresses");
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  /**
   * Creates an integration whose secrets (if its authentication has secret members) are stored
   * as credential generation 1 or later.
   *
   * @param spec the integration; its credentialGeneration is ignored
   * @param secrets the write-only members, or {@code null} when the variant has none
   * @throws IcegateException CONNECTION_SETTING_REJECTED, OUTBOUND_ADDRESS_REJECTED,
   *     AUTHENTICATION_NOT_SUPPORTED, CREDENTIALS_INVALID, ALREADY_EXISTS, FENCED, NOT_FOUND, the
   *     idempotency codes
   */
  public IdempotentResult<Integration> create(String accountId, Integration spec,
      SecretValues secrets, CreateRequest request) {
    Integration base = spec.withAuthentication(spec.authentication(), 0);
    checkConnection(base.type(), base.uri(), base.properties());
    checkAuthentication(base.type(), base.authentication(), secrets);
    return writes.create(repositories.integrations(accountId), base, secrets, request, base,
        (s, generation) -> s.withAuthentication(s.authentication(), generation));
  }

  /** @throws IcegateException NOT_FOUND */
  public Resource<Integration> get(String accountId, String id) {
    ResourceRepository<Integration> integrations = repositories.integrations(accountId);
    return repositories.store().read(tx -> integrations.require(tx, id));
  }

  /** One page of the account's integrations in display-name order. */
  public Page<Resource<Integration>> list(String accountId, PageRequest page) {
    return repositories.integrations(accountId).list(Listing.of(NameScope.ACCOUNT_WIDE), page,
        ReadConsistency.EVENTUAL_ALLOWED);
  }

  /**
   * Integration {@code id} with its deletion fence, read in one transaction (an admin's view: a
   * fence on an existing Integration is a cascade that has not finished).
   *
   * @throws IcegateException NOT_FOUND
   */
  public FencedView<Integration> view(String accountId, String id) {
    ResourceRepository<Integration> integrations = repositories.integrations(accountId);
    return repositories.store().read(
        tx -> FencedView.of(tx, repositories.fences(), integrations.require(tx, id)));
  }

  /** {@link #list} with each Integration's deletion fence, read in the page's transaction. */
  public Page<FencedView<Integration>> listViews(String accountId, PageRequest page) {
    ResourceRepository<Integration> integrations = repositories.integrations(accountId);
    return repositories.store().read(tx -> FencedView.of(tx, repositories.fences(),
        integrations.list(tx, Listing.of(NameScope.ACCOUNT_WIDE), page,
            ReadConsistency.EVENTUAL_ALLOWED)));
  }

  /**
   * Applies a patch: each member {@code null} keeps its value. Changing the URI or properties
   * advances the configuration generation; a rename alone does not.
   *
   * @param type must equal the current type when given (IMMUTABLE_MEMBER)
   * @throws IcegateException NOT_FOUND, GENERATION_MISMATCH, IMMUTABLE_MEMBER, ALREADY_EXISTS,
   *     CONNECTION_SETTING_REJECTED, OUTBOUND_ADDRESS_REJECTED, STORE_CONTENTION (concurrent
   *     writes kept changing the connection between its check and the transaction)
   */
  public Resource<Integration> update(String accountId, String id, ExpectedGeneration expected,
      String displayName, IntegrationType type, String uri,
      Map<String, String> properties) {
    return update(accountId, id, expected, displayName, type, uri, properties, null);
  }

  /**
   * As {@link #update(String, String, ExpectedGeneration, String, IntegrationType, String, Map)},
   * and {@code paused} ({@code null}: kept) pauses or resumes the Integration: a configuration
   * change, so it fences planned and running upstream work.
   */
  public Resource<Integration> update(String accountId, String id, ExpectedGeneration expected,
      String displayName, IntegrationType type, String uri,
      Map<String, String> properties, Boolean paused) {
    ResourceRepository<Integration> integrations = repositories.integrations(accountId);
    for (int attempt = 0; attempt < CHECK_ATTEMPTS; attempt++) {
      // The connection check resolves the host (external I/O): it runs before the transaction,
      // on the connection the patch would give the record read here.
      Integration seen = get(accountId, id).spec();
      Integration planned = patched(seen, displayName, type, uri, properties, paused);
      Integration checked = null;
      if (!sameConnection(planned, seen)) {
        checkConnection(planned.type(), planned.uri(), planned.properties());
        checked = planned;
      }
      Integration approved = checked;
      try {
        // Decided on the record the transaction replaces, from stored state only: a patch built
        // from an earlier read would publish a credential generation a concurrent rotation has
        // already retired.
        return integrations.update(id, expected, now -> {
          Integration next = patched(now, displayName, type, uri, properties, paused);
          boolean connection = !sameConnection(next, now);
          if (connection && (approved == null || !sameConnection(next, approved))) {
            throw new ConnectionChanged(); // a concurrent write changed what would be published
          }
          boolean configuration = connection || next.paused() != now.paused();
          return new SpecChange<>(next,
              configuration ? ChangeKind.CONFIGURATION : ChangeKind.METADATA);
        });
      } catch (ConnectionChanged e) {
        // check again, on the record as it is now
      }
    }
    throw new IcegateException(ErrorCode.STORE_CONTENTION, ResourceKind.INTEGRATION);
  }

  /** {@code now} with the patch's members applied ({@code null}: kept). */
  private static Integration patched(Integration now, String displayName, IntegrationType type,
      String uri, Map<String, String> properties, Boolean paused) {
    if (type != null && type != now.type()) {
      throw new IcegateException(ErrorCode.IMMUTABLE_MEMBER, ResourceKind.INTEGRATION, "type");
    }
    return new Integration(
        displayName == null ? now.displayName() : displayName, now.type(),
        uri == null ? now.uri() : uri, properties == null ? now.properties() : properties,
        now.authentication(), now.credentialGeneration(),
        paused == null ? now.paused() : paused);
  }

  /** Whether both connect to the same place the same way (what the connection check covers). */
  private static boolean sameConnection(Integration a, Integration b) {
    return a.type() == b.type() && a.uri().equals(b.uri()) && a.properties().equals(b.properties());
  }

  /** Thrown inside an update's transaction when the connection to publish was not checked. */
  private static final class ConnectionChanged extends RuntimeException {
    ConnectionChanged() {
      super(null, null, false, false);
    }
  }

  /**
   * Replaces the authentication with a new credential generation (seed 000 rotation: the new
   * generation is stored before the resource transaction, the old one retired after it).
   *
   * @throws IcegateException NOT_FOUND, GENERATION_MISMATCH, AUTHENTICATION_NOT_SUPPORTED,
   *     CREDENTIALS_INVALID, COMMIT_STATE_UNKNOWN
   */
  public Resource<Integration> rotate(String accountId, String id, ExpectedGeneration expected,
      IntegrationAuthentication authentication, SecretValues secrets) {
    Resource<Integration> current = get(accountId, id);
    checkAuthentication(current.spec().type(), authentication, secrets);
    ResourceRepository<Integration> integrations = repositories.integrations(accountId);
    if (secrets == null) {
      return repositories.store().run(tx -> {
        Resource<Integration> now = integrations.require(tx, id);
        Resource<Integration> updated = integrations.update(tx, id, expected,
            now.spec().withAuthentication(authentication, 0), ChangeKind.CONFIGURATION);
        credentials.removeAll(tx, accountId, id);
        return updated;
      });
    }
    return writes.publishGeneration(integrations, id, expected, secrets,
        Integration::credentialGeneration,
        generation -> now -> now.withAuthentication(authentication, generation));
  }

  /**
   * Deletes integration {@code id} with every credential generation, in one transaction. Refused
   * while Overlays depend on it (DEPENDENCY_EXISTS naming them, {@link DependentNames}: their
   * counters are read STRONG in this transaction, so an Overlay created concurrently conflicts). Clears a fence a failed cascade
   * left (the cascade's work is done once no Overlay depends on it). For {@code ?cascade=true} see
   * {@link io.icegate.core.overlay.IntegrationCascade}.
   *
   * @throws IcegateException NOT_FOUND, GENERATION_MISMATCH, DEPENDENCY_EXISTS
   */
  public Resource<Integration> delete(String accountId, String id, ExpectedGeneration expected) {
    ResourceRepository<Integration> integrations = repositories.integrations(accountId);
    return repositories.store().run(tx -> {
      Resource<Integration> was =
          DependentNames.delete(tx, repositories, integrations, id, expected);
      credentials.removeAll(tx, accountId, id);
      JobCleanup.forgetIntegration(tx, accountId, id);
      repositories.fences().clear(tx, was.ref());
      return was;
    });
  }

  private void checkConnection(IntegrationType type, String uri, Map<String, String> properties) {
    URI parsed = ConnectionBoundary.check(uri, properties);
    settings.check(type, properties);
    addresses.check(parsed.getHost());
  }

  private static void checkAuthentication(IntegrationType type,
      IntegrationAuthentication authentication, SecretValues secrets) {
    if (!type.accepts(authentication)) {
      throw new IcegateException(ErrorCode.AUTHENTICATION_NOT_SUPPORTED,
          ResourceKind.INTEGRATION, type, authentication.typeName());
    }
    if (authentication instanceof IntegrationAuthentication.OAuth2ClientCredentials oauth
        && oauth.tokenUri() != null) {
      // persisted and shown to every reader, as the uri is: no secret in it either
      ConnectionBoundary.checkUri(oauth.tokenUri(), "authentication.tokenUri");
    }
    Set<String> given = secrets == null ? Set.of() : secrets.values().keySet();
    Set<String> missing = new TreeSet<>(authentication.requiredSecrets());
    missing.removeAll(given);
    if (!missing.isEmpty()) {
      throw new IcegateException(ErrorCode.CREDENTIALS_INVALID, ResourceKind.INTEGRATION,
          "missing write-only member(s) " + missing);
    }
    Set<String> allowed = new HashSet<>(authentication.requiredSecrets());
    allowed.addAll(authentication.optionalSecrets());
    Set<String> extra = new TreeSet<>(given);
    extra.removeAll(allowed);
    if (!extra.isEmpty()) {
      throw new IcegateException(ErrorCode.CREDENTIALS_INVALID, ResourceKind.INTEGRATION,
          "authentication " + authentication.typeName() + " takes no member(s) " + extra);
    }
  }
}
