package io.icegate.gateway.vending;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.core.model.Catalog;
import io.icegate.core.model.CatalogStorage;
import io.icegate.core.model.Resource;
import io.icegate.gateway.testing.StsFixture;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The session cache of {@link AssumeRoleVending} against the loopback STS, on a clock the test
 * moves: a session is reused until {@link AssumeRoleVending#REUSE_MARGIN} before its expiry, never
 * after; a new Catalog generation asks again.
 */
class AssumeRoleVendingTest {
  private static final String ROLE = "arn:aws:iam::123456789012:role/cache-test";

  private StsFixture sts;
  private AssumeRoleVending vending;
  private final AtomicReference<Instant> now = new AtomicReference<>(Instant.now());

  @BeforeEach
  void start() throws Exception {
    sts = StsFixture.start();
    Clock clock = new Clock() {
      @Override
      public java.time.ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(java.time.ZoneId zone) {
        return this;
      }

      @Override
      public Instant instant() {
        return now.get();
      }
    };
    vending = new AssumeRoleVending((id, generation) -> Optional.of("cache-test-secret"), clock);
  }

  @AfterEach
  void stop() {
    vending.close();
    sts.close();
  }

  @Test
  void sessionsAreReusedUntilTheMarginBeforeExpiry() {
    NativeCredentialSource source = new NativeCredentialSource(
        (id, generation) -> Optional.of("cache-test-secret"), vending);
    CredentialRequest request = request(catalog(1));
    VendingOutcome.Vended first = (VendingOutcome.Vended) source.credentials(request);
    assertThat(sts.requests()).hasSize(1);
    assertThat(sts.requests().get(0).get("DurationSeconds")).isEqualTo("900");

    // 900 s sessions: reusable for the first 5 minutes, not after.
    now.set(now.get().plus(Duration.ofMinutes(4)));
    assertThat(source.credentials(request)).isEqualTo(first);
    assertThat(sts.requests()).hasSize(1);
    now.set(first.expiresAt().minus(AssumeRoleVending.REUSE_MARGIN).plusSeconds(1));
    VendingOutcome.Vended second = (VendingOutcome.Vended) source.credentials(request);
    assertThat(second).isNotEqualTo(first);
    assertThat(sts.requests()).hasSize(2);

    // Another Catalog generation (changed settings) never gets the old generation's session.
    VendingOutcome.Vended third = (VendingOutcome.Vended) source.credentials(request(catalog(2)));
    assertThat(third).isNotEqualTo(second);
    assertThat(sts.requests()).hasSize(3);
  }

  @Test
  void readAndReadWriteAreSeparateSessions() {
    NativeCredentialSource source = new NativeCredentialSource(
        (id, generation) -> Optional.of("cache-test-secret"), vending);
    CredentialRequest read = request(catalog(1));
    CredentialRequest write = new CredentialRequest(read.catalog(), read.identifier(), null,
        read.location(), StorageAccess.READ_WRITE);
    assertThat(source.credentials(read)).isNotEqualTo(source.credentials(write));
    assertThat(sts.requests()).hasSize(2);
    assertThat(sts.requests().get(0).get("Policy")).doesNotContain("s3:PutObject");
    assertThat(sts.requests().get(1).get("Policy")).contains("s3:PutObject");
  }

  private Resource<Catalog> catalog(long generation) {
    CatalogStorage.S3 s3 = new CatalogStorage.S3(null, "us-east-1", true, "AKIDCACHETEST", 1,
        false, new CatalogStorage.AssumeRole(ROLE, sts.endpoint().toString(), 900, null));
    Instant t = Instant.parse("2026-11-29T00:00:00Z");
    return new Resource<>("cat-1", "acct", generation, generation, t, t,
        new Catalog("c", "s3://b/wh", Map.of(), new CatalogStorage(s3)));
  }

  private static CredentialRequest request(Resource<Catalog> catalog) {
    return new CredentialRequest(catalog, TableIdentifier.of("ns", "t"), null, "s3://b/wh/ns/t",
        StorageAccess.READ);
  }
}
