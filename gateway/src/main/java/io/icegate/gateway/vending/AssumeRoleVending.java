package io.icegate.gateway.vending;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.CatalogStorage;
import io.icegate.core.model.Resource;
import io.icegate.gateway.fileio.CatalogFileIO;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.model.AssumeRoleRequest;
import software.amazon.awssdk.services.sts.model.AssumeRoleResponse;
import software.amazon.awssdk.services.sts.model.Credentials;
import software.amazon.awssdk.services.sts.model.StsException;

/**
 * STS AssumeRole vending for native tables: one AssumeRole per (Catalog generation, location,
 * access), with the Catalog's role, duration and external id, a {@link SessionPolicy} for the
 * location and a role session name naming the Catalog ({@code icegate-<catalog id>}: traceable in
 * CloudTrail, not secret). The call is signed with the Catalog's static keys when it has them,
 * else with the server's default AWS credentials chain.
 *
 * <p>Sessions are kept in process memory only, and reused while more than {@link #REUSE_MARGIN}
 * of their life is left: Iceberg's S3FileIO refreshes five minutes before expiry, so what it gets
 * from the credentials route always outlives its own refresh point.
 */
public final class AssumeRoleVending implements AutoCloseable {
  /** Sessions with less life left than this are not handed out again. */
  public static final Duration REUSE_MARGIN = Duration.ofMinutes(10);
  private static final Logger LOG = LoggerFactory.getLogger(AssumeRoleVending.class);
  private static final String DEFAULT_REGION = "us-east-1";
  private static final int MAX_SESSION_NAME = 64;

  private final CatalogFileIO.StorageSecrets secrets;
  private final Clock clock;
  private final Cache<String, StsClient> clients = Caffeine.newBuilder()
      .maximumSize(1_000)
      .expireAfterAccess(Duration.ofHours(1))
      .<String, StsClient>removalListener((key, client, cause) -> {
        if (client != null) {
          client.close();
        }
      })
      .build();
  private final Cache<String, VendingOutcome.Vended> sessions;

  /**
   * @param secrets the Catalogs' stored secret access keys (to sign the AssumeRole call)
   * @param clock the time sessions are judged by
   */
  public AssumeRoleVending(CatalogFileIO.StorageSecrets secrets, Clock clock) {
    this.secrets = secrets;
    this.clock = clock;
    this.sessions = Caffeine.newBuilder()
        .maximumSize(100_000)
        .ticker(() -> TimeUnit.MILLISECONDS.toNanos(clock.millis()))
        .expireAfter(new Expiry<String, VendingOutcome.Vended>() {
          @Override
          public long expireAfterCreate(String key, VendingOutcome.Vended value, long now) {
            return reusableFor(value);
          }

          @Override
          public long expireAfterUpdate(String key, VendingOutcome.Vended value, long now,
              long current) {
            return reusableFor(value);
          }

          @Override
          public long expireAfterRead(String key, VendingOutcome.Vended value, long now,
              long current) {
            return current;
          }
        })
        .build();
  }

  /**
   * Credentials for {@code location} under {@code s3}'s role, from memory while reusable.
   *
   * @throws CredentialsUnavailableException when STS cannot be reached or refuses (the message names
   *     the role and STS's error code, never a credential)
   */
  VendingOutcome vend(Resource<Catalog> catalog, CatalogStorage.S3 s3, String location,
      S3Location parsed, StorageAccess access) {
    String key = catalog.id() + '@' + catalog.generation() + '|' + access + '|' + location;
    // Concurrent asks for one key wait for a single AssumeRole. The call runs inside the map's
    // compute (bounded by the client's 20 s call timeout), so a slow STS can also delay the few
    // keys that share its hash bin.
    return sessions.get(key, k -> assume(catalog, s3, location, parsed, access));
  }

  private long reusableFor(VendingOutcome.Vended value) {
    Duration left = Duration.between(clock.instant(), value.expiresAt()).minus(REUSE_MARGIN);
    return left.isNegative() ? 0 : left.toNanos();
  }

  private VendingOutcome.Vended assume(Resource<Catalog> catalog, CatalogStorage.S3 s3,
      String location, S3Location parsed, StorageAccess access) {
    CatalogStorage.AssumeRole role = s3.assumeRole();
    AssumeRoleRequest.Builder request = AssumeRoleRequest.builder()
        .roleArn(role.roleArn())
        .roleSessionName(sessionName(catalog.id()))
        .durationSeconds(role.durationSeconds())
        .policy(SessionPolicy.forLocation(role.partition(), parsed, access));
    if (role.externalId() != null) {
      request.externalId(role.externalId());
    }
    AssumeRoleResponse response;
    try {
      response = client(catalog, s3).assumeRole(request.build());
    } catch (StsException e) {
      String code = e.awsErrorDetails() == null ? "unknown" : e.awsErrorDetails().errorCode();
      LOG.warn("STS refused AssumeRole of {} for catalog {}: {} (HTTP {})", role.roleArn(),
          catalog.id(), code, e.statusCode());
      throw new CredentialsUnavailableException(
          "STS refused AssumeRole of %s for catalog %s: %s", role.roleArn(),
          catalog.spec().name(), code);
    } catch (SdkException e) {
      LOG.warn("STS AssumeRole of {} for catalog {} failed: {}", role.roleArn(), catalog.id(),
          e.getClass().getSimpleName());
      throw new CredentialsUnavailableException(
          "STS could not be reached to assume %s for catalog %s", role.roleArn(),
          catalog.spec().name());
    }
    Credentials session = response.credentials();
    Instant expiresAt = session.expiration();
    Map<String, String> config = NativeCredentialSource.clientConfig(s3);
    config.put("s3.access-key-id", session.accessKeyId());
    config.put("s3.secret-access-key", session.secretAccessKey());
    config.put("s3.session-token", session.sessionToken());
    config.put("s3.session-token-expires-at-ms", Long.toString(expiresAt.toEpochMilli()));
    LOG.debug("assumed {} for catalog {} ({}), expires {}", role.roleArn(), catalog.id(), access,
        expiresAt);
    return new VendingOutcome.Vended(
        List.of(NativeCredentialSource.credential(location, config)), expiresAt);
  }

  /** {@code icegate-<catalog id>} within STS's alphabet ([\w+=,.@-]) and 64 characters. */
  static String sessionName(String catalogId) {
    String name = ("icegate-" + catalogId).replaceAll("[^\\w+=,.@-]", "-");
    return name.length() > MAX_SESSION_NAME ? name.substring(0, MAX_SESSION_NAME) : name;
  }

  /** One StsClient per Catalog generation: a changed Catalog gets a fresh one. */
  private StsClient client(Resource<Catalog> catalog, CatalogStorage.S3 s3) {
    return clients.get(catalog.id() + '@' + catalog.generation(), key -> {
      CatalogStorage.AssumeRole role = s3.assumeRole();
      var builder = StsClient.builder()
          .httpClientBuilder(ApacheHttpClient.builder())
          .region(Region.of(s3.region() == null ? DEFAULT_REGION : s3.region()))
          .credentialsProvider(signingCredentials(catalog, s3))
          .overrideConfiguration(c -> c.apiCallTimeout(Duration.ofSeconds(20)));
      if (role.stsEndpoint() != null) {
        builder.endpointOverride(URI.create(role.stsEndpoint()));
      }
      return builder.build();
    });
  }

  private AwsCredentialsProvider signingCredentials(Resource<Catalog> catalog,
      CatalogStorage.S3 s3) {
    Optional<String> secret = s3.accessKeyId() == null || s3.credentialGeneration() == 0
        ? Optional.empty()
        : secrets.secretAccessKey(catalog.id(), s3.credentialGeneration());
    if (secret.isPresent()) {
      return StaticCredentialsProvider.create(
          AwsBasicCredentials.create(s3.accessKeyId(), secret.get()));
    }
    return DefaultCredentialsProvider.builder().build();
  }

  @Override
  public void close() {
    clients.invalidateAll();
    clients.cleanUp();
  }
}
