package io.icegate.access.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class RefreshingAwsCredentialsRegistryTest {

  private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
  private static final RefreshTiming TIMING =
      new RefreshTiming(
          Duration.ofSeconds(5),
          Duration.ofMinutes(5),
          Duration.ofMinutes(15),
          Duration.ofSeconds(1));

  /** A clock the test moves by hand. */
  static final class ManualClock extends Clock {
    private volatile Instant now = T0;

    void advance(Duration by) {
      now = now.plus(by);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }

  private final ManualClock clock = new ManualClock();

  private static ResolvedAwsCredentials creds(String id, Instant expiration) {
    return new ResolvedAwsCredentials(id, "secret-" + id, "session-" + id, expiration);
  }

  @Test
  void refreshesAheadOfExpiryWithAdaptiveSkew() {
    AtomicInteger calls = new AtomicInteger();
    try (AwsCredentialsRegistration registration =
        RefreshingAwsCredentialsRegistry.register(
            creds("A", T0.plus(Duration.ofHours(1))),
            () -> creds("B" + calls.incrementAndGet(), clock.instant().plus(Duration.ofHours(1))),
            TIMING,
            clock)) {
      String ref = registration.reference();
      // one hour of lifetime: skew is capped at five minutes
      clock.advance(Duration.ofMinutes(54));
      assertThat(RefreshingAwsCredentialsRegistry.resolve(ref).accessKeyId()).isEqualTo("A");
      clock.advance(Duration.ofMinutes(1).plusSeconds(1));
      assertThat(RefreshingAwsCredentialsRegistry.resolve(ref).accessKeyId()).isEqualTo("B1");
      assertThat(calls).hasValue(1);
    }
    // short-lived credentials get a proportionally short skew (a fifth of 60 s = 12 s)
    assertThat(TIMING.skew(T0, T0.plusSeconds(60))).isEqualTo(Duration.ofSeconds(12));
    assertThat(TIMING.skew(T0, T0.plusSeconds(10))).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void credentialsWithoutExpiryRefreshOnTheCadence() {
    AtomicInteger calls = new AtomicInteger();
    try (AwsCredentialsRegistration registration =
        RefreshingAwsCredentialsRegistry.register(
            creds("A", null), () -> creds("B" + calls.incrementAndGet(), null), TIMING, clock)) {
      clock.advance(Duration.ofMinutes(14));
      assertThat(registration.resolve().accessKeyId()).isEqualTo("A");
      clock.advance(Duration.ofMinutes(1));
      assertThat(registration.resolve().accessKeyId()).isEqualTo("B1");
      clock.advance(Duration.ofMinutes(14));
      assertThat(registration.resolve().accessKeyId()).isEqualTo("B1");
      assertThat(calls).hasValue(1);
    }
  }

  @Test
  void transientFailureKeepsStillValidCredentialsThenRecovers() {
    AtomicInteger calls = new AtomicInteger();
    try (AwsCredentialsRegistration registration =
        RefreshingAwsCredentialsRegistry.register(
            creds("A", T0.plusSeconds(60)),
            () -> {
              if (calls.incrementAndGet() <= 2) {
                throw AwsRefreshException.transientFailure("sts throttled", null);
              }
              return creds("B", clock.instant().plusSeconds(3600));
            },
            TIMING,
            clock)) {
      clock.advance(Duration.ofSeconds(50)); // inside the 12 s skew, still valid
      assertThat(registration.resolve().accessKeyId()).isEqualTo("A");
      assertThat(registration.resolve().accessKeyId()).isEqualTo("A"); // backoff: no second call
      assertThat(calls).hasValue(1);
      clock.advance(Duration.ofSeconds(2));
      assertThat(registration.resolve().accessKeyId()).isEqualTo("A");
      assertThat(calls).hasValue(2);
      clock.advance(Duration.ofSeconds(2));
      assertThat(registration.resolve().accessKeyId()).isEqualTo("B");
    }
  }

  @Test
  void transientFailureWithNothingValidIsUnavailable() {
    try (AwsCredentialsRegistration registration =
        RefreshingAwsCredentialsRegistry.register(
            creds("A", T0.plusSeconds(60)),
            () -> {
              throw AwsRefreshException.transientFailure("sts down", null);
            },
            TIMING,
            clock)) {
      clock.advance(Duration.ofSeconds(61));
      assertThatThrownBy(registration::resolve)
          .isInstanceOfSatisfying(
              CatalogAccessException.class,
              e -> assertThat(e.code()).isEqualTo(Code.CREDENTIAL_UNAVAILABLE));
    }
  }

  @Test
  void terminalFailureIsCachedAndNotRetried() {
    AtomicInteger calls = new AtomicInteger();
    try (AwsCredentialsRegistration registration =
        RefreshingAwsCredentialsRegistry.register(
            creds("A", T0.plusSeconds(3600)),
            () -> {
              calls.incrementAndGet();
              throw AwsRefreshException.terminalFailure("role revoked", null);
            },
            TIMING,
            clock)) {
      clock.advance(Duration.ofMinutes(56));
      for (int i = 0; i < 3; i++) {
        clock.advance(Duration.ofSeconds(10));
        assertThatThrownBy(registration::resolve)
            .isInstanceOfSatisfying(
                CatalogAccessException.class,
                e -> assertThat(e.code()).isEqualTo(Code.INVALID_CONFIGURATION));
      }
      assertThat(calls).hasValue(1);
    }
  }

  @Test
  void nothingResolvesAfterClose() {
    AwsCredentialsRegistration registration =
        RefreshingAwsCredentialsRegistry.register(
            creds("A", null), () -> creds("B", null), TIMING, clock);
    String ref = registration.reference();
    assertThat(RefreshingAwsCredentialsRegistry.resolve(ref).accessKeyId()).isEqualTo("A");
    registration.close();
    registration.close();
    assertThatThrownBy(() -> RefreshingAwsCredentialsRegistry.resolve(ref))
        .isInstanceOfSatisfying(
            CatalogAccessException.class, e -> assertThat(e.code()).isEqualTo(Code.CLOSED));
    assertThatThrownBy(registration::resolve)
        .isInstanceOfSatisfying(
            CatalogAccessException.class, e -> assertThat(e.code()).isEqualTo(Code.CLOSED));
  }

  @Test
  void oneRefreshAtATimePerRegistration() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    AtomicInteger concurrent = new AtomicInteger();
    AtomicInteger maxConcurrent = new AtomicInteger();
    CountDownLatch release = new CountDownLatch(1);
    try (AwsCredentialsRegistration registration =
        RefreshingAwsCredentialsRegistry.register(
            creds("A", T0.plusSeconds(60)),
            () -> {
              int now = concurrent.incrementAndGet();
              maxConcurrent.accumulateAndGet(now, Math::max);
              calls.incrementAndGet();
              try {
                release.await(5, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              concurrent.decrementAndGet();
              return creds("B", clock.instant().plusSeconds(3600));
            },
            TIMING,
            clock)) {
      clock.advance(Duration.ofSeconds(61)); // expired: every caller must wait for the refresh
      ExecutorService pool = Executors.newFixedThreadPool(8);
      try {
        List<Future<ResolvedAwsCredentials>> results = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
          results.add(pool.submit(registration::resolve));
        }
        Thread.sleep(200);
        release.countDown();
        for (Future<ResolvedAwsCredentials> result : results) {
          assertThat(result.get(5, TimeUnit.SECONDS).accessKeyId()).isEqualTo("B");
        }
      } finally {
        pool.shutdownNow();
      }
      assertThat(calls).hasValue(1);
      assertThat(maxConcurrent).hasValue(1);
    }
  }

  @Test
  void logsAndToStringCarryOnlyHashedReferences() {
    Logger logger = (Logger) LoggerFactory.getLogger(AwsCredentialsRegistration.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    ch.qos.logback.classic.Level before = logger.getLevel();
    logger.setLevel(ch.qos.logback.classic.Level.DEBUG);
    try (AwsCredentialsRegistration registration =
        RefreshingAwsCredentialsRegistry.register(
            creds("AKIDPLANTED", T0.plusSeconds(60)),
            () -> {
              throw AwsRefreshException.transientFailure("throttled", null);
            },
            TIMING,
            clock)) {
      clock.advance(Duration.ofSeconds(55));
      registration.resolve();
      String ref = registration.reference();
      List<String> texts = new ArrayList<>();
      texts.add(registration.toString());
      texts.add(registration.resolve().toString());
      appender.list.forEach(event -> texts.add(event.getFormattedMessage()));
      assertThat(appender.list).isNotEmpty();
      for (String text : texts) {
        assertThat(text)
            .doesNotContain(ref)
            .doesNotContain("AKIDPLANTED")
            .doesNotContain("secret-AKIDPLANTED")
            .doesNotContain("session-AKIDPLANTED");
      }
      assertThat(registration.toString()).contains(RefreshingAwsCredentialsRegistry.hashed(ref));
    } finally {
      logger.detachAppender(appender);
      logger.setLevel(before);
    }
  }
}
