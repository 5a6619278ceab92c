package io.icegate.access.aws;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One renewable credential registration, owned by whoever registered it. Thread-safe.
 *
 * <p>Refresh rules: at most one refresh runs at a time; while one runs, callers whose current
 * credentials still work get those immediately and only callers holding expired ones wait. A
 * transient refresh failure keeps still-valid credentials (and waits {@link
 * RefreshTiming#retryBackoff()} before trying again); with nothing valid left it fails with {@code
 * CREDENTIAL_UNAVAILABLE}. A terminal failure is cached and every later resolve fails with {@code
 * INVALID_CONFIGURATION} without calling the refresher. After {@link #close()} nothing resolves.
 */
public final class AwsCredentialsRegistration implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(AwsCredentialsRegistration.class);

  private record State(ResolvedAwsCredentials credentials, Instant obtainedAt, Instant failedAt) {}

  private final String reference;
  private final String label;
  private final AwsCredentialsRefresher refresher;
  private final RefreshTiming timing;
  private final Clock clock;
  private final Runnable onClose;
  private final ReentrantLock refreshLock = new ReentrantLock();
  private volatile State state;
  private volatile AwsRefreshException terminal;
  private volatile boolean closed;

  AwsCredentialsRegistration(
      String reference,
      ResolvedAwsCredentials initial,
      AwsCredentialsRefresher refresher,
      RefreshTiming timing,
      Clock clock,
      Runnable onClose) {
    this.reference = reference;
    this.label = RefreshingAwsCredentialsRegistry.hashed(reference);
    this.refresher = refresher;
    this.timing = timing;
    this.clock = clock;
    this.onClose = onClose;
    this.state = new State(initial, clock.instant(), null);
  }

  /** The opaque reference; pass it only inside {@code ResolvedCatalogCredentials}. */
  String reference() {
    return reference;
  }

  /** The hashed label used in logs. */
  public String label() {
    return label;
  }

  /**
   * Current credentials, refreshed first when due.
   *
   * @throws CatalogAccessException {@code CLOSED}, {@code INVALID_CONFIGURATION} (a cached terminal
   *     failure), {@code CREDENTIAL_UNAVAILABLE} (a transient failure with nothing valid)
   */
  public ResolvedAwsCredentials resolve() {
    checkUsable();
    State current = state;
    Instant now = clock.instant();
    if (!timing.due(current.credentials(), current.obtainedAt(), now)) {
      return current.credentials();
    }
    boolean stillValid = current.credentials().usableAt(now);
    if (stillValid) {
      if (!refreshLock.tryLock()) {
        return current.credentials();
      }
    } else {
      refreshLock.lock();
    }
    try {
      return refreshLocked();
    } finally {
      refreshLock.unlock();
    }
  }

  private ResolvedAwsCredentials refreshLocked() {
    checkUsable();
    State current = state;
    Instant now = clock.instant();
    if (!timing.due(current.credentials(), current.obtainedAt(), now)) {
      return current.credentials(); // another caller refreshed while this one waited
    }
    boolean stillValid = current.credentials().usableAt(now);
    if (stillValid
        && current.failedAt() != null
        && now.isBefore(current.failedAt().plus(timing.retryBackoff()))) {
      return current.credentials();
    }
    try {
      ResolvedAwsCredentials fresh = refresher.refresh();
      if (fresh == null) {
        throw AwsRefreshException.terminalFailure("refresher returned no credentials", null);
      }
      state = new State(fresh, clock.instant(), null);
      LOG.debug("refreshed AWS credentials {} (expiration {})", label, fresh.expiration());
      return fresh;
    } catch (AwsRefreshException e) {
      if (e.kind() == AwsRefreshException.Kind.TERMINAL) {
        terminal = e;
        LOG.warn("AWS credential registration {} failed terminally: {}", label, e.getMessage());
        throw terminalFailure();
      }
      return afterTransientFailure(current, now, e);
    } catch (RuntimeException e) {
      return afterTransientFailure(current, now, e);
    }
  }

  private ResolvedAwsCredentials afterTransientFailure(State current, Instant now, Exception e) {
    state = new State(current.credentials(), current.obtainedAt(), now);
    if (current.credentials().usableAt(now)) {
      LOG.warn(
          "refresh of AWS credentials {} failed, keeping the still-valid ones: {}",
          label,
          e.getMessage());
      return current.credentials();
    }
    throw new CatalogAccessException(
        Code.CREDENTIAL_UNAVAILABLE,
        "AWS credentials " + label + " expired and could not be refreshed",
        e);
  }

  private void checkUsable() {
    if (closed) {
      throw new CatalogAccessException(
          Code.CLOSED, "AWS credential registration " + label + " is closed");
    }
    if (terminal != null) {
      throw terminalFailure();
    }
  }

  private CatalogAccessException terminalFailure() {
    return new CatalogAccessException(
        Code.INVALID_CONFIGURATION,
        "AWS credential registration " + label + " failed terminally: " + terminal.getMessage(),
        terminal);
  }

  /** Removes the registration; later resolves fail with {@code CLOSED}. Idempotent. */
  @Override
  public void close() {
    if (!closed) {
      closed = true;
      onClose.run();
      LOG.debug("closed AWS credential registration {}", label);
    }
  }

  @Override
  public String toString() {
    String status = closed ? "closed" : terminal != null ? "failed" : "live";
    return "AwsCredentialsRegistration["
        + label
        + ", "
        + status
        + ", expiration="
        + state.credentials().expiration()
        + "]";
  }
}
