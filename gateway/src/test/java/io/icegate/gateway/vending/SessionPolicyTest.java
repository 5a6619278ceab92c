package io.icegate.gateway.vending;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Optional;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The session policy covers a table location on path boundaries. Policies are judged by a small
 * evaluator written here from IAM's documented rules (Allow statements; {@code *} and {@code ?}
 * wildcards in resource ARNs and {@code StringLike} values, matching across {@code /}; the {@code
 * ${*}}, {@code ${?}}, {@code ${$}} variables standing for the literal character; a condition on
 * an absent key fails), since no IAM runs here.
 */
class SessionPolicyTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void coversTheTableAndNotItsTextualNeighbours() throws Exception {
    JsonNode policy = policy("s3://b/t", StorageAccess.READ);
    assertThat(allowsObject(policy, "s3:GetObject", "b", "t/metadata/v1.json")).isTrue();
    assertThat(allowsObject(policy, "s3:GetObject", "b", "t/data/a/b/c.parquet")).isTrue();
    assertThat(allowsObject(policy, "s3:GetObject", "b", "t2/data/x.parquet")).isFalse();
    assertThat(allowsObject(policy, "s3:GetObject", "b", "t")).isFalse();
    assertThat(allowsObject(policy, "s3:GetObject", "b", "tx")).isFalse();
    assertThat(allowsObject(policy, "s3:GetObject", "b2", "t/x")).isFalse();
    assertThat(allowsObject(policy, "s3:GetObject", "bb", "t/x")).isFalse();
    assertThat(allowsList(policy, "b", "t/")).isTrue();
    assertThat(allowsList(policy, "b", "t/data/")).isTrue();
    assertThat(allowsList(policy, "b", "t")).isFalse();
    assertThat(allowsList(policy, "b", "t2/")).isFalse();
    assertThat(allowsList(policy, "b", "")).isFalse();
    assertThat(allowsList(policy, "b", null)).isFalse();
  }

  @Test
  void readOnlyPolicyWritesNothingAndReadWriteOnlyUnderTheTable() throws Exception {
    JsonNode read = policy("s3://b/t", StorageAccess.READ);
    JsonNode write = policy("s3://b/t", StorageAccess.READ_WRITE);
    for (String action : new String[] {"s3:PutObject", "s3:DeleteObject",
        "s3:AbortMultipartUpload"}) {
      assertThat(allowsObject(read, action, "b", "t/data/x")).as(action).isFalse();
      assertThat(allowsObject(write, action, "b", "t/data/x")).as(action).isTrue();
      assertThat(allowsObject(write, action, "b", "t2/data/x")).as(action).isFalse();
    }
    assertThat(allowsObject(write, "s3:GetObject", "b", "t/x")).isTrue();
    assertThat(allowsObject(write, "s3:DeleteBucket", "b", "t/x")).isFalse();
  }

  @Test
  void trailingSlashesNameTheSameLocation() throws Exception {
    String plain = SessionPolicy.forLocation("aws", S3Location.parse("s3://b/t").orElseThrow(),
        StorageAccess.READ);
    for (String location : new String[] {"s3://b/t/", "s3://b/t//", "s3a://b/t", "s3n://b/t/"}) {
      assertThat(SessionPolicy.forLocation("aws", S3Location.parse(location).orElseThrow(),
          StorageAccess.READ)).as(location).isEqualTo(plain);
    }
  }

  @Test
  void nestedLocationsStayInTheirOwnSubtree() throws Exception {
    JsonNode policy = policy("s3://b/wh/ns/t", StorageAccess.READ);
    assertThat(allowsObject(policy, "s3:GetObject", "b", "wh/ns/t/data/x")).isTrue();
    assertThat(allowsObject(policy, "s3:GetObject", "b", "wh/ns/t2/data/x")).isFalse();
    assertThat(allowsObject(policy, "s3:GetObject", "b", "wh/ns/other/x")).isFalse();
    assertThat(allowsObject(policy, "s3:GetObject", "b", "wh/x")).isFalse();
    assertThat(allowsList(policy, "b", "wh/")).isFalse();
    assertThat(allowsList(policy, "b", "wh/ns/t/")).isTrue();
  }

  @Test
  void wildcardCharactersInKeysAreLiterals() throws Exception {
    JsonNode star = policy("s3://b/t*", StorageAccess.READ);
    assertThat(allowsObject(star, "s3:GetObject", "b", "t*/x")).isTrue();
    assertThat(allowsObject(star, "s3:GetObject", "b", "tanything/x")).isFalse();
    assertThat(allowsList(star, "b", "tz/")).isFalse();
    JsonNode question = policy("s3://b/t?", StorageAccess.READ);
    assertThat(allowsObject(question, "s3:GetObject", "b", "t?/x")).isTrue();
    assertThat(allowsObject(question, "s3:GetObject", "b", "tx/x")).isFalse();
    JsonNode dollar = policy("s3://b/t${aws:username}", StorageAccess.READ);
    assertThat(allowsObject(dollar, "s3:GetObject", "b", "t${aws:username}/x")).isTrue();
    assertThat(allowsObject(dollar, "s3:GetObject", "b", "tbob/x")).isFalse();
    JsonNode unicode = policy("s3://b/tä blé \"q\"", StorageAccess.READ);
    assertThat(allowsObject(unicode, "s3:GetObject", "b", "tä blé \"q\"/x")).isTrue();
    assertThat(allowsObject(unicode, "s3:GetObject", "b", "tä blé \"q\"2/x")).isFalse();
  }

  @Test
  void aWholeBucketLocationCoversTheBucketOnly() throws Exception {
    JsonNode policy = policy("s3://b", StorageAccess.READ);
    assertThat(allowsObject(policy, "s3:GetObject", "b", "any/key")).isTrue();
    assertThat(allowsObject(policy, "s3:GetObject", "b2", "any/key")).isFalse();
    assertThat(allowsList(policy, "b", null)).isTrue();
  }

  @Test
  void resourcesUseTheRolesPartition() throws Exception {
    JsonNode policy = JSON.readTree(SessionPolicy.forLocation("aws-cn",
        S3Location.parse("s3://b/t").orElseThrow(), StorageAccess.READ));
    assertThat(policy.toString()).contains("arn:aws-cn:s3:::b/t/*").doesNotContain("arn:aws:");
  }

  /**
   * Property: over random keys built from slashes, wildcard characters and two letters, an object
   * (or a listing prefix) is covered exactly when it lies under the location's key followed by a
   * slash.
   */
  @Test
  void coverageIsExactlyThePathPrefix() throws Exception {
    Random random = new Random(20261129L);
    String alphabet = "ab/*?$";
    for (int i = 0; i < 400; i++) {
      String location = randomKey(random, alphabet, 1 + random.nextInt(5));
      Optional<S3Location> parsed = S3Location.parse("s3://b/" + location);
      String table = parsed.orElseThrow().keyPrefix();
      JsonNode read = policy("s3://b/" + location, StorageAccess.READ);
      for (int j = 0; j < 20; j++) {
        String candidate = j % 4 == 0
            ? table + randomKey(random, alphabet, 1 + random.nextInt(4))
            : randomKey(random, alphabet, 1 + random.nextInt(8));
        boolean under = table.isEmpty() || candidate.startsWith(table + "/");
        assertThat(allowsObject(read, "s3:GetObject", "b", candidate))
            .as("location %s, object %s", location, candidate).isEqualTo(under);
        assertThat(allowsList(read, "b", candidate))
            .as("location %s, list prefix %s", location, candidate).isEqualTo(under);
      }
    }
  }

  @Test
  void onlyS3LocationsParse() {
    assertThat(S3Location.parse("s3://b/a//t/")).contains(new S3Location("b", "a//t"));
    assertThat(S3Location.parse("s3://b")).contains(new S3Location("b", ""));
    assertThat(S3Location.parse("s3:///t")).isEmpty();
    assertThat(S3Location.parse("file:/tmp/t")).isEmpty();
    assertThat(S3Location.parse("gs://b/t")).isEmpty();
    assertThat(S3Location.parse(null)).isEmpty();
  }

  // ---- a small IAM evaluator -----------------------------------------------------------------

  private static JsonNode policy(String location, StorageAccess access) throws Exception {
    return JSON.readTree(SessionPolicy.forLocation("aws",
        S3Location.parse(location).orElseThrow(), access));
  }

  private static boolean allowsObject(JsonNode policy, String action, String bucket, String key) {
    return allows(policy, action, "arn:aws:s3:::" + bucket + "/" + key, null);
  }

  private static boolean allowsList(JsonNode policy, String bucket, String prefix) {
    return allows(policy, "s3:ListBucket", "arn:aws:s3:::" + bucket, prefix);
  }

  private static boolean allows(JsonNode policy, String action, String resource, String prefix) {
    assertThat(policy.get("Version").asText()).isEqualTo("2012-10-17");
    for (JsonNode statement : policy.get("Statement")) {
      if (!statement.get("Effect").asText().equals("Allow")
          || !anyMatches(statement.get("Action"), action)
          || !anyMatches(statement.get("Resource"), resource)) {
        continue;
      }
      JsonNode condition = statement.get("Condition");
      if (condition == null) {
        return true;
      }
      assertThat(condition.size()).isEqualTo(1);
      JsonNode like = condition.get("StringLike");
      assertThat(like).isNotNull();
      if (prefix != null && anyMatches(like.get("s3:prefix"), prefix)) {
        return true;
      }
    }
    return false;
  }

  private static boolean anyMatches(JsonNode patterns, String value) {
    if (patterns.isTextual()) {
      return pattern(patterns.asText()).matcher(value).matches();
    }
    for (JsonNode p : patterns) {
      if (pattern(p.asText()).matcher(value).matches()) {
        return true;
      }
    }
    return false;
  }

  private static Pattern pattern(String iam) {
    StringBuilder regex = new StringBuilder();
    for (int i = 0; i < iam.length(); i++) {
      if (iam.startsWith("${*}", i) || iam.startsWith("${?}", i) || iam.startsWith("${$}", i)) {
        regex.append(Pattern.quote(String.valueOf(iam.charAt(i + 2))));
        i += 3;
      } else if (iam.charAt(i) == '*') {
        regex.append(".*");
      } else if (iam.charAt(i) == '?') {
        regex.append('.');
      } else {
        assertThat(iam.startsWith("${", i)).as("unknown policy variable in " + iam).isFalse();
        regex.append(Pattern.quote(String.valueOf(iam.charAt(i))));
      }
    }
    return Pattern.compile(regex.toString(), Pattern.DOTALL);
  }

  private static String randomKey(Random random, String alphabet, int length) {
    StringBuilder key = new StringBuilder();
    for (int i = 0; i < length; i++) {
      key.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return key.toString();
  }
}
