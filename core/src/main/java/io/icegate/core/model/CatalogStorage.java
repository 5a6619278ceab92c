package io.icegate.core.model;

import io.icegate.core.error.IcegateException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.regex.Pattern;

/**
 * Object-storage settings of a catalog (DESIGN.md "HTTP surfaces", catalogs): what the gateway's
 * FileIO for the catalog is built from, and how its native tables vend storage credentials to
 * clients that ask for them ({@code X-Iceberg-Access-Delegation: vended-credentials}). Only
 * non-secret members are stored; the secret access key lives in the CredentialStore under (catalog
 * id, {@link S3#credentialGeneration()}).
 *
 * @param s3 S3 settings, or {@code null}
 */
public record CatalogStorage(S3 s3) {

  /**
   * S3 (or S3-compatible) storage.
   *
   * @param endpoint endpoint URI, or {@code null} for AWS's default
   * @param region region, or {@code null}
   * @param pathStyleAccess whether to address buckets by path rather than by host
   * @param accessKeyId the access key id (not secret), or {@code null} for the server's own
   *     credentials
   * @param credentialGeneration generation of the secret access key in the CredentialStore; 0 when
   *     no secret is configured
   * @param vendStaticKeys whether native tables vend the static keys themselves (local and test
   *     use: they are long-lived and not scoped to a table); an explicit choice, so that keys
   *     configured for the gateway's own FileIO are not handed out by surprise
   * @param assumeRole STS AssumeRole vending, or {@code null}; excludes {@code vendStaticKeys}
   */
  public record S3(
      String endpoint,
      String region,
      boolean pathStyleAccess,
      String accessKeyId,
      long credentialGeneration,
      boolean vendStaticKeys,
      AssumeRole assumeRole) {
    public S3 {
      if (credentialGeneration < 0) {
        throw new IllegalArgumentException("credentialGeneration must not be negative");
      }
      if (vendStaticKeys && assumeRole != null) {
        throw IcegateException.invalidArgument(
            "storage.s3.vendStaticKeys and storage.s3.roleArn exclude each other");
      }
      if (vendStaticKeys && (accessKeyId == null || accessKeyId.isEmpty())) {
        throw IcegateException.invalidArgument(
            "storage.s3.vendStaticKeys needs storage.s3.accessKeyId and secretAccessKey");
      }
    }

    /** Storage without credential vending. */
    public S3(String endpoint, String region, boolean pathStyleAccess, String accessKeyId,
        long credentialGeneration) {
      this(endpoint, region, pathStyleAccess, accessKeyId, credentialGeneration, false, null);
    }

    /** The same settings with the secret at {@code generation}. */
    public S3 withCredentialGeneration(long generation) {
      return new S3(endpoint, region, pathStyleAccess, accessKeyId, generation, vendStaticKeys,
          assumeRole);
    }
  }

  /**
   * Vending through STS AssumeRole: for each table the gateway assumes {@code roleArn} with a
   * session policy limited to the table's location, and hands the temporary credentials out. The
   * call to STS is signed with the catalog's static keys when it has them, else with the server's
   * default AWS credentials; those are never handed out.
   *
   * @param roleArn the IAM role to assume, {@code arn:<partition>:iam::<account>:role/<name>}
   * @param stsEndpoint STS endpoint URI ({@code http} or {@code https}, no user info, query or
   *     fragment), or {@code null} for AWS's regional default
   * @param durationSeconds lifetime of each session, 900 to 43200 (STS's bounds; the role's own
   *     maximum session duration may be lower)
   * @param externalId the external id the role's trust policy requires, or {@code null}
   */
  public record AssumeRole(
      String roleArn, String stsEndpoint, int durationSeconds, String externalId) {
    /** The session lifetime when none is given: one hour, as STS's own default. */
    public static final int DEFAULT_DURATION_SECONDS = 3600;
    public static final int MIN_DURATION_SECONDS = 900;
    public static final int MAX_DURATION_SECONDS = 43200;

    // IAM's limits: a role ARN is 20 to 2048 characters; a role path and name use [\w+=,.@/-].
    private static final Pattern ROLE_ARN =
        Pattern.compile("arn:[a-z0-9-]+:iam::[0-9]*:role/[\\w+=,.@/-]+");
    // STS's ExternalId: 2 to 1224 characters of [\w+=,.@:/-].
    private static final Pattern EXTERNAL_ID = Pattern.compile("[\\w+=,.@:/-]{2,1224}");

    public AssumeRole {
      if (roleArn == null || roleArn.length() < 20 || roleArn.length() > 2048
          || !ROLE_ARN.matcher(roleArn).matches()) {
        throw IcegateException.invalidArgument(
            "storage.s3.roleArn must be an IAM role ARN (arn:<partition>:iam::<account>:role/<name>)");
      }
      if (stsEndpoint != null) {
        checkEndpoint(stsEndpoint, "storage.s3.stsEndpoint");
      }
      if (durationSeconds < MIN_DURATION_SECONDS || durationSeconds > MAX_DURATION_SECONDS) {
        throw IcegateException.invalidArgument("storage.s3.durationSeconds must be between "
            + MIN_DURATION_SECONDS + " and " + MAX_DURATION_SECONDS);
      }
      if (externalId != null && !EXTERNAL_ID.matcher(externalId).matches()) {
        throw IcegateException.invalidArgument(
            "storage.s3.externalId must be 2 to 1224 characters of letters, digits and +=,.@:/-_");
      }
    }

    /** The partition of {@link #roleArn()} ({@code aws}, {@code aws-cn}, ...): S3 ARNs use it. */
    public String partition() {
      return roleArn.substring(4, roleArn.indexOf(':', 4));
    }
  }

  /**
   * Checks an endpoint setting: an absolute {@code http(s)} URI with a host, without user info (a
   * credential in a stored, displayed member), query or fragment.
   *
   * @param member the member's name for the message, e.g. {@code storage.s3.endpoint}
   * @throws IcegateException INVALID_ARGUMENT naming {@code member}
   */
  public static void checkEndpoint(String endpoint, String member) {
    URI uri;
    try {
      uri = new URI(endpoint);
    } catch (URISyntaxException e) {
      throw IcegateException.invalidArgument(member + " is not a valid URI");
    }
    boolean web = "http".equalsIgnoreCase(uri.getScheme())
        || "https".equalsIgnoreCase(uri.getScheme());
    if (!web || uri.getHost() == null || uri.getPort() == 0 || uri.getPort() > 65535) {
      throw IcegateException.invalidArgument(
          member + " must be an absolute http(s) URI with a host (and a port up to 65535)");
    }
    if (uri.getRawUserInfo() != null || uri.getRawQuery() != null
        || uri.getRawFragment() != null) {
      throw IcegateException.invalidArgument(
          member + " must not carry user info, a query or a fragment");
    }
  }
}
