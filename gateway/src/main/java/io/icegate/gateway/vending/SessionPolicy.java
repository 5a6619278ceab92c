package io.icegate.gateway.vending;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The IAM session policy that scopes AssumeRole credentials to one table location. It is matched
 * on path boundaries: for {@code s3://b/t} it allows object actions on {@code b/t/*} and listing
 * bucket {@code b} only with an {@code s3:prefix} of {@code t/} or {@code t/*}, so {@code
 * s3://b/t2} is not covered (a policy on {@code b/t*} would cover it). The effective permissions are
 * the intersection with the role's own policies (IAM session policies).
 *
 * <p>{@code *}, {@code ?} and {@code $} in a key are IAM wildcard and variable characters; they are
 * written as the policy variables {@code ${*}}, {@code ${?}} and {@code ${$}}, which stand for the
 * literal character (IAM policy elements: variables, version 2012-10-17).
 */
public final class SessionPolicy {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> READ_OBJECT = List.of("s3:GetObject", "s3:GetObjectVersion");
  private static final List<String> WRITE_OBJECT = List.of("s3:PutObject", "s3:DeleteObject",
      "s3:AbortMultipartUpload", "s3:ListMultipartUploadParts");

  private SessionPolicy() {}

  /**
   * The policy document (compact JSON) for {@code location} and {@code access}.
   *
   * @param partition the ARN partition ({@code aws}, {@code aws-cn}, {@code aws-us-gov}), the
   *     role's
   */
  public static String forLocation(String partition, S3Location location, StorageAccess access) {
    String bucketArn = "arn:" + partition + ":s3:::" + location.bucket();
    String key = literal(location.keyPrefix());
    List<String> objectActions = new ArrayList<>(READ_OBJECT);
    if (access == StorageAccess.READ_WRITE) {
      objectActions.addAll(WRITE_OBJECT);
    }
    List<Object> statements = new ArrayList<>();
    statements.add(statement("TableObjects", objectActions,
        key.isEmpty() ? bucketArn + "/*" : bucketArn + "/" + key + "/*", null));
    Map<String, Object> condition = key.isEmpty()
        ? null
        : Map.of("StringLike", Map.of("s3:prefix", List.of(key + "/", key + "/*")));
    statements.add(statement("TableListing", List.of("s3:ListBucket"), bucketArn, condition));
    statements.add(statement("BucketLocation", List.of("s3:GetBucketLocation"), bucketArn, null));
    Map<String, Object> policy = new LinkedHashMap<>();
    policy.put("Version", "2012-10-17");
    policy.put("Statement", statements);
    try {
      return JSON.writeValueAsString(policy);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Map<String, Object> statement(String sid, List<String> actions, String resource,
      Map<String, Object> condition) {
    Map<String, Object> statement = new LinkedHashMap<>();
    statement.put("Sid", sid);
    statement.put("Effect", "Allow");
    statement.put("Action", actions);
    statement.put("Resource", resource);
    if (condition != null) {
      statement.put("Condition", condition);
    }
    return statement;
  }

  /** {@code key} with IAM's special characters written as the variables that mean them. */
  static String literal(String key) {
    StringBuilder out = new StringBuilder(key.length());
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      switch (c) {
        case '$' -> out.append("${$}");
        case '*' -> out.append("${*}");
        case '?' -> out.append("${?}");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
