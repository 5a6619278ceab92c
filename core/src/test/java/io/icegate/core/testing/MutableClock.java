package io.icegate.core.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock tests move by hand (lease and receipt expiry); thread-safe. */
public final class MutableClock extends Clock {
  private volatile Instant now;

  public MutableClock(Instant start) {
    this.now = start;
  }

  /** A clock at a fixed, arbitrary start. */
  public static MutableClock start() {
    return new MutableClock(Instant.parse("2025-01-01T00:00:00Z"));
  }

  /** Moves the clock forward by {@code step}. */
  public synchronized void advance(Duration step) {
    now = now.plus(step);
  }

  @Override
  public Instant instant() {
    return now;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("tests use UTC");
  }
}
