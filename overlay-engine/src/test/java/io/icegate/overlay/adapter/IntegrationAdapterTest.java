package io.icegate.overlay.adapter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.connection.CatalogAuthentication;
import io.icegate.access.connection.CatalogAuthenticationScheme;
import io.icegate.access.connection.CatalogProtocol;
import io.icegate.access.connection.ResolvedCatalogCredentials;
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
import io.icegate.core.model.Integration;
import io.icegate.core.model.Resource;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.OnConflict;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.overlay.store.OverlayStore;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The adapter over the real core services on the in-memory store: each admin authentication
 * variant maps onto its SPI scheme, assume-role is refused by name, and a credential generation
 * retired by a rotation reads as CREDENTIAL_UNAVAILABLE (retryable).
 */
class IntegrationAdapterTest {
  private static final String SECRET = "adapter-secret-R7k2";

  private KvStore store;
  private IntegrationService service;
  private IntegrationAdapter adapter;
  private String account;

  @BeforeEach
  void setUp() {
    store = new EngineKvStore(InMemoryEngine.create());
    Clock clock = Clock.systemUTC();
    Repositories repositories = OverlayStore.repositories(store, clock);
    CredentialStore credentials = new CredentialStore(store, MasterKey.of(new byte[32]), clock);
    CredentialedWrites writes = new CredentialedWrites(new CredentialPublication(credentials),
        new IdempotentCreates(repositories, clock, IdempotencySettings.DEFAULT));
    // The address rules are the SPI policy's and are tested there; this test is about mapping.
    service = new IntegrationService(repositories, writes, credentials, host -> { });
    adapter = new IntegrationAdapter(repositories, credentials);
    account = repositories.accounts().create(new Account("acme"), OnConflict.ERROR).resource()
        .id();
  }

  @AfterEach
  void tearDown() {
    store.close();
  }

  private Resource<Integration> create(IntegrationAuthentication auth, Map<String, String> secrets,
      Map<String, String> properties) {
    Integration spec = new Integration("i" + System.nanoTime(), IntegrationType.ICEBERG_REST,
        "https://catalog.example.com/api", properties, auth, 0);
    return service.create(account, spec, secrets == null ? null : new SecretValues(secrets),
        new CreateRequest(OnConflict.ERROR, null)).outcome().resource();
  }

  @Test
  void bearerBecomesATokenCredential() {
    Resource<Integration> r = create(new IntegrationAuthentication.Bearer(),
        Map.of("token", SECRET), Map.of("warehouse", "w"));
    IntegrationConnection c = adapter.resolve(account, r.id());
    assertThat(c.config().protocol()).isEqualTo(CatalogProtocol.ICEBERG_REST);
    assertThat(c.config().endpoint().toString()).isEqualTo("https://catalog.example.com/api");
    assertThat(c.config().properties()).containsExactly(Map.entry("warehouse", "w"));
    assertThat(c.config().authentication().scheme()).isEqualTo(CatalogAuthenticationScheme.BEARER);
    assertThat(c.credentials().properties())
        .containsExactly(Map.entry(ResolvedCatalogCredentials.TOKEN, SECRET));
    assertThat(c.credentialGeneration()).isEqualTo(r.spec().credentialGeneration()).isPositive();
    assertThat(c.configurationGeneration()).isEqualTo(r.configurationGeneration());
    assertThat(c.toString()).doesNotContain(SECRET);
  }

  @Test
  void oauthTokenUriBecomesTheOauth2ServerUri() {
    Resource<Integration> r = create(new IntegrationAuthentication.OAuth2ClientCredentials(
        "https://idp.example.com/token", "client-1", "catalog"),
        Map.of("clientSecret", SECRET), Map.of());
    IntegrationConnection c = adapter.resolve(account, r.id());
    assertThat(c.config().authentication().scheme()).isEqualTo(CatalogAuthenticationScheme.OAUTH2);
    assertThat(c.config().authentication().properties()).containsOnly(
        Map.entry(CatalogAuthentication.OAUTH2_SERVER_URI, "https://idp.example.com/token"),
        Map.entry(CatalogAuthentication.SCOPE, "catalog"));
    assertThat(c.credentials().properties()).containsOnly(
        Map.entry(ResolvedCatalogCredentials.CLIENT_ID, "client-1"),
        Map.entry(ResolvedCatalogCredentials.CLIENT_SECRET, SECRET));
  }

  @Test
  void sigv4StaticKeysMapOntoTheSigningSettings() {
    Resource<Integration> r = create(new IntegrationAuthentication.AwsSigV4("eu-west-1", "glue",
        "AKIAEXAMPLE"), Map.of("secretAccessKey", SECRET, "sessionToken", "st-" + SECRET),
        Map.of());
    IntegrationConnection c = adapter.resolve(account, r.id());
    assertThat(c.config().authentication().scheme())
        .isEqualTo(CatalogAuthenticationScheme.AWS_SIGV4);
    assertThat(c.config().authentication().properties()).containsOnly(
        Map.entry(CatalogAuthentication.SIGNING_REGION, "eu-west-1"),
        Map.entry(CatalogAuthentication.SIGNING_NAME, "glue"));
    assertThat(c.credentials().properties()).containsOnly(
        Map.entry(ResolvedCatalogCredentials.AWS_ACCESS_KEY_ID, "AKIAEXAMPLE"),
        Map.entry(ResolvedCatalogCredentials.AWS_SECRET_ACCESS_KEY, SECRET),
        Map.entry(ResolvedCatalogCredentials.AWS_SESSION_TOKEN, "st-" + SECRET));
  }

  @Test
  void accessKeysTakeRegionAndSigningNameFromTheConnectionProperties() {
    Map<String, String> properties = new HashMap<>();
    properties.put("rest.signing-region", "us-west-2");
    properties.put("rest.signing-name", "execute-api");
    properties.put("warehouse", "w");
    Resource<Integration> r = create(new IntegrationAuthentication.AwsAccessKeys("AKIAEXAMPLE"),
        Map.of("secretAccessKey", SECRET), properties);
    IntegrationConnection c = adapter.resolve(account, r.id());
    assertThat(c.config().properties()).containsOnly(Map.entry("warehouse", "w"));
    assertThat(c.config().authentication().properties()).containsOnly(
        Map.entry(CatalogAuthentication.SIGNING_REGION, "us-west-2"),
        Map.entry(CatalogAuthentication.SIGNING_NAME, "execute-api"));

    Resource<Integration> noRegion = create(
        new IntegrationAuthentication.AwsAccessKeys("AKIAEXAMPLE"),
        Map.of("secretAccessKey", SECRET), Map.of());
    assertCode(() -> adapter.resolve(account, noRegion.id()), Code.INVALID_CONFIGURATION,
        "rest.signing-region");
  }

  @Test
  void assumeRoleIsRefusedByName() {
    Resource<Integration> r = create(new IntegrationAuthentication.AwsAssumeRole(
        "arn:aws:iam::123456789012:role/reader", null, null, "us-east-1"), null, Map.of());
    assertCode(() -> adapter.resolve(account, r.id()), Code.INVALID_CONFIGURATION,
        "aws-assume-role");
  }

  @Test
  void aGenerationRetiredByARotationIsUnavailableAndRetryable() {
    Resource<Integration> before = create(new IntegrationAuthentication.Bearer(),
        Map.of("token", SECRET), Map.of());
    Resource<Integration> after = service.rotate(account, before.id(), ExpectedGeneration.any(),
        new IntegrationAuthentication.Bearer(), new SecretValues(Map.of("token", "new-" + SECRET)));
    assertThat(after.spec().credentialGeneration())
        .isGreaterThan(before.spec().credentialGeneration());

    // a reader that saw the record before the rotation
    assertThatThrownBy(() -> adapter.resolve(before))
        .isInstanceOfSatisfying(CatalogAccessException.class, e -> {
          assertThat(e.code()).isEqualTo(Code.CREDENTIAL_UNAVAILABLE);
          assertThat(e.retryable()).isTrue();
          assertThat(e.getMessage()).doesNotContain(SECRET);
        });
    // a fresh read gets the new generation
    IntegrationConnection now = adapter.resolve(account, before.id());
    assertThat(now.credentials().property(ResolvedCatalogCredentials.TOKEN))
        .isEqualTo("new-" + SECRET);
    assertThat(now.configurationGeneration()).isGreaterThan(before.configurationGeneration());
  }

  private static void assertCode(Runnable call, Code code, String mentions) {
    assertThatThrownBy(call::run).isInstanceOfSatisfying(CatalogAccessException.class, e -> {
      assertThat(e.code()).isEqualTo(code);
      assertThat(e.getMessage()).contains(mentions).doesNotContain(SECRET);
    });
  }
}
