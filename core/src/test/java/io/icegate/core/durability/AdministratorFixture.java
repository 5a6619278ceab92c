package io.icegate.core.durability;

import io.icegate.admin.model.IntegrationAuthentication;
import io.icegate.admin.model.IntegrationType;
import io.icegate.core.catalog.CatalogService;
import io.icegate.core.credential.CredentialStore;
import io.icegate.core.credential.SecretValues;
import io.icegate.core.integration.IntegrationService;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.Integration;
import io.icegate.core.overlay.OverlayService;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.Repositories;
import io.icegate.core.testing.HookedStore;
import io.icegate.core.testing.InvariantChecker;
import io.icegate.core.testing.MutableClock;
import java.util.List;
import java.util.Map;

/**
 * What each family of administrator races needs from {@link AdministratorRaceTest}, which
 * implements every family: the services of one account over a {@link HookedStore} (whose actions
 * let another administrator commit at a chosen write), and the writes most races start from.
 */
interface AdministratorFixture {
  SecretValues FIRST = new SecretValues(Map.of("token", "first"));
  SecretValues SECOND = new SecretValues(Map.of("token", "second"));
  SecretValues THIRD = new SecretValues(Map.of("token", "third"));

  HookedStore store();

  Repositories repos();

  CredentialStore credentials();

  IntegrationService integrations();

  CatalogService catalogs();

  OverlayService overlays();

  /** The id of the account every race writes in. */
  String account();

  MutableClock clock();

  /** Hosts the Integration connection check resolved, each with "inside" when in a write. */
  List<String> checkedHosts();

  default AccountDeletion deletion() {
    return new AccountDeletion(repos(), clock(), 50,
        List.of(overlays().accountCleanup(), credentials().accountCleanup()));
  }

  default String catalog(String name) {
    return catalogs().create(account(), new Catalog(name, "file:/w", Map.of()), null,
        CreateRequest.plain()).outcome().resource().id();
  }

  default String integration(String name) {
    return integrations().create(account(), new Integration(name, IntegrationType.ICEBERG_REST,
            "https://c.example.com/v1", Map.of(), new IntegrationAuthentication.Bearer(), 0),
        FIRST, CreateRequest.plain()).outcome().resource().id();
  }

  default void rotate(String id, SecretValues secret) {
    integrations().rotate(account(), id, ExpectedGeneration.any(),
        new IntegrationAuthentication.Bearer(), secret);
  }

  /** Nothing faults here, so every retire and discard ran: no generation stays noted either. */
  default void assertClean() {
    InvariantChecker.of(store()).withCredentials(credentials()).settled().assertClean();
  }
}
