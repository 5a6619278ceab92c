package io.icegate.access.aws;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Process-local registry of renewable AWS credentials (seed 001 "Renewable AWS credentials").
 *
 * <p>The caller registers initial credentials with a refresher and owns the returned {@link
 * AwsCredentialsRegistration}: closing it removes it, after which nothing resolves through its
 * reference. The reference travels to a provider inside {@code ResolvedCatalogCredentials} under
 * {@link AwsCredentialScope#property()}, so the catalog-signing and storage scopes are separate
 * registrations. A provider turns the reference back into credentials with {@link #resolve}, on
 * every use, which refreshes when due.
 *
 * <p>References are random and opaque; logs and {@code toString} show only a short SHA-256 of them
 * ({@link #hashed}), never the reference itself, a key or a token.
 */
public final class RefreshingAwsCredentialsRegistry {

  private static final ConcurrentMap<String, AwsCredentialsRegistration> LIVE =
      new ConcurrentHashMap<>();

  private RefreshingAwsCredentialsRegistry() {}

  /** Registers with {@link RefreshTiming#defaults()} and the system clock. */
  public static AwsCredentialsRegistration register(
      ResolvedAwsCredentials initial, AwsCredentialsRefresher refresher) {
    return register(initial, refresher, RefreshTiming.defaults(), Clock.systemUTC());
  }

  /**
   * Registers credentials that {@code refresher} renews.
   *
   * @param initial credentials valid now (their obtain time is taken as now)
   * @return the caller-owned registration
   */
  public static AwsCredentialsRegistration register(
      ResolvedAwsCredentials initial,
      AwsCredentialsRefresher refresher,
      RefreshTiming timing,
      Clock clock) {
    String reference = UUID.randomUUID().toString();
    AwsCredentialsRegistration registration =
        new AwsCredentialsRegistration(
            reference,
            Objects.requireNonNull(initial, "initial"),
            Objects.requireNonNull(refresher, "refresher"),
            Objects.requireNonNull(timing, "timing"),
            Objects.requireNonNull(clock, "clock"),
            () -> LIVE.remove(reference));
    LIVE.put(reference, registration);
    return registration;
  }

  /**
   * The credential properties that hand {@code registration} to a provider for {@code scope}: a
   * single entry, {@code scope.property() -> reference}.
   */
  public static Map<String, String> propertiesFor(
      AwsCredentialsRegistration registration, AwsCredentialScope scope) {
    return Map.of(scope.property(), registration.reference());
  }

  /**
   * Current credentials of the registration named by {@code reference}, refreshed when due.
   *
   * @throws CatalogAccessException {@code CLOSED} when no live registration has this reference;
   *     otherwise see {@link AwsCredentialsRegistration#resolve()}
   */
  public static ResolvedAwsCredentials resolve(String reference) {
    AwsCredentialsRegistration registration = LIVE.get(Objects.requireNonNull(reference));
    if (registration == null) {
      throw new CatalogAccessException(
          Code.CLOSED, "no live AWS credential registration " + hashed(reference));
    }
    return registration.resolve();
  }

  /** A short, stable, non-reversible label for a reference: {@code sha256:} and 12 hex digits. */
  public static String hashed(String reference) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(reference.getBytes(StandardCharsets.UTF_8));
      return "sha256:" + HexFormat.of().formatHex(digest, 0, 6);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is always available", e);
    }
  }
}
