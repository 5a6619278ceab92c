package io.icegate.access.iceberg.aws;

import io.icegate.access.aws.RefreshingAwsCredentialsRegistry;
import io.icegate.access.aws.ResolvedAwsCredentials;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;

/**
 * An AWS SDK credentials provider backed by a {@link RefreshingAwsCredentialsRegistry}
 * registration, so that Iceberg's SigV4 signer picks up renewed credentials on every request.
 *
 * <p>Iceberg instantiates it by class name from {@code client.credentials-provider} and passes the
 * {@code client.credentials-provider.*} properties to {@link #create(Map)}; {@link #REGISTRATION}
 * carries the registration reference. {@code toString} shows only the hashed reference.
 */
public final class RegisteredAwsCredentialsProvider implements AwsCredentialsProvider {

  /**
   * Property (after Iceberg strips {@code client.credentials-provider.}) naming the registration.
   */
  public static final String REGISTRATION = "registration";

  private final String reference;

  private RegisteredAwsCredentialsProvider(String reference) {
    this.reference = reference;
  }

  /** Iceberg's factory hook. */
  public static RegisteredAwsCredentialsProvider create(Map<String, String> properties) {
    String reference = properties.get(REGISTRATION);
    if (reference == null || reference.isEmpty()) {
      throw new IllegalArgumentException("no credential registration reference given");
    }
    return new RegisteredAwsCredentialsProvider(reference);
  }

  @Override
  public AwsCredentials resolveCredentials() {
    ResolvedAwsCredentials resolved = RefreshingAwsCredentialsRegistry.resolve(reference);
    if (resolved.sessionToken() == null) {
      return AwsBasicCredentials.create(resolved.accessKeyId(), resolved.secretAccessKey());
    }
    return AwsSessionCredentials.builder()
        .accessKeyId(resolved.accessKeyId())
        .secretAccessKey(resolved.secretAccessKey())
        .sessionToken(resolved.sessionToken())
        .expirationTime(resolved.expiration())
        .build();
  }

  @Override
  public String toString() {
    return "RegisteredAwsCredentialsProvider["
        + RefreshingAwsCredentialsRegistry.hashed(reference)
        + "]";
  }
}
