package io.icegate.overlay.adapter;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.connection.CatalogAuthentication;
import io.icegate.access.connection.CatalogAuthenticationScheme;
import io.icegate.access.connection.CatalogConnectionConfig;
import io.icegate.access.connection.CatalogProtocol;
import io.icegate.access.connection.ResolvedCatalogCredentials;
import io.icegate.admin.model.IntegrationAuthentication;
import io.icegate.core.credential.CredentialStore;
import io.icegate.core.credential.SecretValues;
import io.icegate.core.model.Integration;
import io.icegate.core.model.Resource;
import io.icegate.core.repo.Repositories;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Turns a persisted Integration and its current credential generation into the SPI's {@link
 * CatalogConnectionConfig} and {@link ResolvedCatalogCredentials} (seed 000 "Catalog access
 * boundary": the service adapter).
 *
 * <p>Mapping (admin authentication variant to SPI scheme):
 *
 * <ul>
 *   <li>{@code bearer} to {@code BEARER}, credential {@code token};
 *   <li>{@code oauth2-client-credentials} to {@code OAUTH2}: {@code tokenUri} becomes {@code
 *       oauth2-server-uri}, {@code scope} stays {@code scope}, credentials {@code client-id} and
 *       {@code client-secret};
 *   <li>{@code aws-sigv4} to {@code AWS_SIGV4}: {@code region} and {@code signingName} become
 *       {@code signing-region} and {@code signing-name}, static keys {@code aws.*};
 *   <li>{@code aws-access-keys} to {@code AWS_SIGV4} with region and signing name taken from the
 *       connection properties {@value #SIGNING_REGION_PROPERTY} and {@value
 *       #SIGNING_NAME_PROPERTY} (removed from the properties handed to the provider);
 *   <li>{@code aws-assume-role} is refused with {@code INVALID_CONFIGURATION}: assume-role is not
 *       wired yet, and the adapter never falls back to the server's ambient AWS credentials.
 * </ul>
 *
 * Authentication is required for Integrations, so the adapter never selects the SPI's {@code NONE}
 * scheme. Thread-safe.
 */
public final class IntegrationAdapter {

  /** Connection property holding the SigV4 region of {@code aws-access-keys}. */
  public static final String SIGNING_REGION_PROPERTY = "rest.signing-region";

  /** Connection property holding the SigV4 signing name of {@code aws-access-keys}. */
  public static final String SIGNING_NAME_PROPERTY = "rest.signing-name";

  private final Repositories repositories;
  private final CredentialStore credentials;

  public IntegrationAdapter(Repositories repositories, CredentialStore credentials) {
    this.repositories = Objects.requireNonNull(repositories, "repositories");
    this.credentials = Objects.requireNonNull(credentials, "credentials");
  }

  /** The Integration record, without resolving secrets. */
  public Resource<Integration> integration(String accountId, String integrationId) {
    return repositories.store()
        .read(tx -> repositories.integrations(accountId).require(tx, integrationId));
  }

  /**
   * Reads Integration {@code integrationId} and its current credential generation in one
   * serializable read and translates both.
   *
   * @throws io.icegate.core.error.IcegateException NOT_FOUND when the Integration does not exist
   * @throws CatalogAccessException {@code INVALID_CONFIGURATION} (assume-role, missing stored
   *     credentials or members, an endpoint the SPI refuses), {@code CREDENTIAL_UNAVAILABLE} (the
   *     generation the record names is not stored: superseded by a rotation; retryable)
   */
  public IntegrationConnection resolve(String accountId, String integrationId) {
    return repositories.store().read(tx -> {
      Resource<Integration> integration =
          repositories.integrations(accountId).require(tx, integrationId);
      long generation = integration.spec().credentialGeneration();
      Optional<SecretValues> secrets = generation == 0 ? Optional.empty()
          : credentials.read(tx, integrationId, generation);
      return translate(integration, secrets);
    });
  }

  /**
   * Translates an Integration record read earlier, reading its credential generation now. When a
   * rotation happened in between, that generation may already be retired: {@code
   * CREDENTIAL_UNAVAILABLE}, and a retry with a fresh read succeeds.
   *
   * @throws CatalogAccessException as {@link #resolve(String, String)}
   */
  public IntegrationConnection resolve(Resource<Integration> integration) {
    long generation = integration.spec().credentialGeneration();
    Optional<SecretValues> secrets = generation == 0 ? Optional.empty()
        : credentials.read(integration.id(), generation);
    return translate(integration, secrets);
  }

  private static IntegrationConnection translate(Resource<Integration> resource,
      Optional<SecretValues> stored) {
    Integration integration = resource.spec();
    IntegrationAuthentication auth = integration.authentication();
    if (auth instanceof IntegrationAuthentication.AwsAssumeRole) {
      throw invalid("authentication aws-assume-role is stored but not supported yet: icegate does"
          + " not assume roles and never uses the server's own (ambient) AWS credentials; rotate"
          + " the integration to aws-sigv4, aws-access-keys, oauth2-client-credentials or bearer");
    }
    long generation = integration.credentialGeneration();
    if (generation == 0) {
      throw invalid("authentication " + auth.typeName() + " has no stored credentials; icegate"
          + " never falls back to ambient credentials");
    }
    SecretValues secrets = stored.orElseThrow(() -> new CatalogAccessException(
        Code.CREDENTIAL_UNAVAILABLE, "credential generation " + generation + " of integration "
            + resource.id() + " is no longer stored (superseded by a rotation); retry"));

    Map<String, String> properties = new HashMap<>(integration.properties());
    Map<String, String> settings = new HashMap<>();
    Map<String, String> secret = new HashMap<>();
    CatalogAuthenticationScheme scheme;
    // Java 17: no pattern switch, so an if-chain over the sealed variants (assume-role left above).
    if (auth instanceof IntegrationAuthentication.Bearer) {
      scheme = CatalogAuthenticationScheme.BEARER;
      secret.put(ResolvedCatalogCredentials.TOKEN, member(secrets, "token", auth));
    } else if (auth instanceof IntegrationAuthentication.OAuth2ClientCredentials o) {
      scheme = CatalogAuthenticationScheme.OAUTH2;
      putIfPresent(settings, CatalogAuthentication.OAUTH2_SERVER_URI, o.tokenUri());
      putIfPresent(settings, CatalogAuthentication.SCOPE, o.scope());
      secret.put(ResolvedCatalogCredentials.CLIENT_ID, o.clientId());
      secret.put(ResolvedCatalogCredentials.CLIENT_SECRET, member(secrets, "clientSecret", auth));
    } else if (auth instanceof IntegrationAuthentication.AwsSigV4 s) {
      scheme = CatalogAuthenticationScheme.AWS_SIGV4;
      properties.remove(SIGNING_REGION_PROPERTY);
      properties.remove(SIGNING_NAME_PROPERTY);
      settings.put(CatalogAuthentication.SIGNING_REGION, s.region());
      settings.put(CatalogAuthentication.SIGNING_NAME, s.signingName());
      staticKeys(s.accessKeyId(), secrets, auth, secret);
    } else if (auth instanceof IntegrationAuthentication.AwsAccessKeys k) {
      scheme = CatalogAuthenticationScheme.AWS_SIGV4;
      String region = properties.remove(SIGNING_REGION_PROPERTY);
      String signingName = properties.remove(SIGNING_NAME_PROPERTY);
      if (region == null || region.isBlank()) {
        throw invalid("authentication aws-access-keys takes its signing region from connection"
            + " property " + SIGNING_REGION_PROPERTY + ", which is not set");
      }
      settings.put(CatalogAuthentication.SIGNING_REGION, region);
      putIfPresent(settings, CatalogAuthentication.SIGNING_NAME, signingName);
      staticKeys(k.accessKeyId(), secrets, auth, secret);
    } else {
      throw invalid("authentication " + auth.typeName() + " is not supported");
    }
    CatalogConnectionConfig config = new CatalogConnectionConfig(
        CatalogProtocol.valueOf(integration.type().name()), endpoint(integration.uri()),
        properties, new CatalogAuthentication(scheme, settings));
    return new IntegrationConnection(resource.accountId(), resource.id(),
        resource.configurationGeneration(), generation, config,
        new ResolvedCatalogCredentials(secret, Map.of(), null));
  }

  private static void staticKeys(String accessKeyId, SecretValues secrets,
      IntegrationAuthentication auth, Map<String, String> secret) {
    secret.put(ResolvedCatalogCredentials.AWS_ACCESS_KEY_ID, accessKeyId);
    secret.put(ResolvedCatalogCredentials.AWS_SECRET_ACCESS_KEY,
        member(secrets, "secretAccessKey", auth));
    putIfPresent(secret, ResolvedCatalogCredentials.AWS_SESSION_TOKEN, secrets.get("sessionToken"));
  }

  private static String member(SecretValues secrets, String name,
      IntegrationAuthentication auth) {
    String value = secrets.get(name);
    if (value == null) {
      throw invalid("the stored credentials of authentication " + auth.typeName()
          + " lack member " + name);
    }
    return value;
  }

  private static void putIfPresent(Map<String, String> map, String key, String value) {
    if (value != null && !value.isBlank()) {
      map.put(key, value);
    }
  }

  private static URI endpoint(String uri) {
    try {
      return new URI(uri);
    } catch (URISyntaxException e) {
      throw invalid("the integration uri is not a valid URI");
    }
  }

  private static CatalogAccessException invalid(String message) {
    return new CatalogAccessException(Code.INVALID_CONFIGURATION, message);
  }
}
