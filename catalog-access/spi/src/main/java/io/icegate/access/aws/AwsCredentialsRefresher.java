package io.icegate.access.aws;

/** Obtains new credentials for a renewable registration (an STS call, a secret-store read). */
@FunctionalInterface
public interface AwsCredentialsRefresher {

  /**
   * @return fresh credentials
   * @throws AwsRefreshException classified as transient (retry later, keep what still works) or
   *     terminal (cached: the registration stops resolving)
   */
  ResolvedAwsCredentials refresh() throws AwsRefreshException;
}
