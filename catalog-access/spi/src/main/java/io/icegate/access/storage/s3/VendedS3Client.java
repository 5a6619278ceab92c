package io.icegate.access.storage.s3;

import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.access.storage.VendedStorageCredentials;
import java.net.URI;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Builds the one kind of S3 client a provider may use to touch an upstream table's storage: its
 * only credentials are the vended ones (a static provider, so no environment, profile, instance
 * role or catalog keys can stand in), and its DNS resolver applies the caller's {@link
 * OutboundAddressPolicy} to every address before connecting (seed 001: storage validation "without
 * ambient credential fallback").
 *
 * <p>Checksums are computed and validated only when an operation requires it, which S3-compatible
 * stores need and AWS accepts.
 *
 * <p>The AWS SDK ({@code s3}, {@code apache-client}) is an optional dependency of the SPI: a
 * provider that calls this class declares it.
 */
public final class VendedS3Client {

  /** Endpoint override setting (an absolute URI), e.g. for S3-compatible stores. */
  public static final String ENDPOINT = VendedStorageCredentials.S3_ENDPOINT;

  /** Region setting; {@code us-east-1} when absent. */
  public static final String REGION = VendedStorageCredentials.S3_REGION;

  /** Path-style access setting ({@code true}/{@code false}, default false). */
  public static final String PATH_STYLE_ACCESS = VendedStorageCredentials.S3_PATH_STYLE_ACCESS;

  private VendedS3Client() {}

  /**
   * @param credentials the vended session: {@code s3.access-key-id}, {@code s3.secret-access-key},
   *     and {@code s3.session-token} when the catalog vended one
   * @param settings non-secret store settings by the names {@link #ENDPOINT}, {@link #REGION},
   *     {@link #PATH_STYLE_ACCESS}; other keys are ignored
   * @param policy checked on every resolved address of the store
   * @return a client the caller closes
   */
  public static S3Client open(
      VendedStorageCredentials credentials,
      Map<String, String> settings,
      OutboundAddressPolicy policy) {
    Map<String, String> keys = credentials.properties();
    S3ClientBuilder builder =
        S3Client.builder()
            .credentialsProvider(StaticCredentialsProvider.create(identity(keys)))
            .region(Region.of(settings.getOrDefault(REGION, "us-east-1")))
            .forcePathStyle(Boolean.parseBoolean(settings.getOrDefault(PATH_STYLE_ACCESS, "false")))
            .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
            .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
            .httpClient(ApacheHttpClient.builder().dnsResolver(policy::resolve).build());
    String endpoint = settings.get(ENDPOINT);
    if (endpoint != null) {
      builder.endpointOverride(URI.create(endpoint));
    }
    return builder.build();
  }

  /**
   * Session credentials when a token was vended; plain keys otherwise (some catalogs vend static
   * keys, and the SDK refuses a session identity without a token).
   */
  private static AwsCredentials identity(Map<String, String> keys) {
    String accessKeyId = keys.get(VendedStorageCredentials.S3_ACCESS_KEY_ID);
    String secretAccessKey = keys.get(VendedStorageCredentials.S3_SECRET_ACCESS_KEY);
    String sessionToken = keys.get(VendedStorageCredentials.S3_SESSION_TOKEN);
    if (sessionToken == null || sessionToken.isBlank()) {
      return AwsBasicCredentials.create(accessKeyId, secretAccessKey);
    }
    return AwsSessionCredentials.create(accessKeyId, secretAccessKey, sessionToken);
  }

  /**
   * The store's status and error code for a failure, never the request (its headers carry the
   * session token): {@code HTTP 403 AccessDenied}, or the exception's simple class name.
   */
  public static String describe(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof S3Exception s3) {
        String code = s3.awsErrorDetails() == null ? null : s3.awsErrorDetails().errorCode();
        return "HTTP " + s3.statusCode() + (code == null ? "" : " " + code);
      }
    }
    return failure.getClass().getSimpleName();
  }

  /** The HTTP status of an S3 failure in {@code failure}'s cause chain, or -1. */
  public static int status(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof S3Exception s3) {
        return s3.statusCode();
      }
    }
    return -1;
  }
}
