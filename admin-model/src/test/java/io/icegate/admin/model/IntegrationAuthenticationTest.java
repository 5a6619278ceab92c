package io.icegate.admin.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The authentication variants as the admin API carries them and core stores them: member names,
 * the {@code type} discriminator, the write-only catalogue and the records' own checks.
 */
class IntegrationAuthenticationTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final List<IntegrationAuthentication> EVERY_VARIANT = List.of(
      new IntegrationAuthentication.Bearer(),
      new IntegrationAuthentication.OAuth2ClientCredentials("https://idp/token", "gw", "read"),
      new IntegrationAuthentication.AwsSigV4("eu-west-1", "glue", "AKID"),
      new IntegrationAuthentication.AwsAccessKeys("AKID"),
      new IntegrationAuthentication.AwsAssumeRole("arn:aws:iam::1:role/r", null, null,
          "eu-west-1"));

  @Test
  void everyVariantRoundTripsUnderItsTypeName() throws Exception {
    for (IntegrationAuthentication variant : EVERY_VARIANT) {
      String json = JSON.writeValueAsString(variant);
      assertThat(JSON.readTree(json).get("type").asText()).isEqualTo(variant.typeName());
      assertThat(JSON.readValue(json, IntegrationAuthentication.class)).isEqualTo(variant);
    }
  }

  @Test
  void wireMembersAreTheRecordComponents() throws Exception {
    assertThat(JSON.writeValueAsString(
        new IntegrationAuthentication.AwsSigV4("eu-west-1", "glue", "AKID")))
        .isEqualTo("{\"type\":\"aws-sigv4\",\"region\":\"eu-west-1\",\"signingName\":\"glue\","
            + "\"accessKeyId\":\"AKID\"}");
  }

  @Test
  void secretMembersOfATypeNameAreTheVariantsSecrets() {
    for (IntegrationAuthentication variant : EVERY_VARIANT) {
      Set<String> secrets = new HashSet<>(variant.requiredSecrets());
      secrets.addAll(variant.optionalSecrets());
      assertThat(IntegrationAuthentication.secretMembers(variant.typeName()))
          .isEqualTo(secrets);
    }
    assertThat(IntegrationAuthentication.secretMembers("no-such-type")).isEmpty();
  }

  @Test
  void aMissingRequiredMemberIsNamed() {
    assertThatThrownBy(() -> new IntegrationAuthentication.OAuth2ClientCredentials(null, " ", null))
        .isInstanceOf(InvalidMemberException.class)
        .hasMessage("authentication.clientId must not be empty");
    assertThatThrownBy(() -> new IntegrationAuthentication.AwsSigV4("r", null, "AKID"))
        .isInstanceOf(InvalidMemberException.class)
        .hasMessage("authentication.signingName must not be empty");
    assertThatThrownBy(() -> new IntegrationAuthentication.AwsAssumeRole(null, null, null, "r"))
        .isInstanceOf(InvalidMemberException.class)
        .hasMessage("authentication.roleArn must not be empty");
  }

  @Test
  void integrationTypesAcceptTheirVariants() {
    for (IntegrationAuthentication variant : EVERY_VARIANT) {
      assertThat(IntegrationType.ICEBERG_REST.accepts(variant)).isTrue();
      assertThat(IntegrationType.UNITY.accepts(variant)).isEqualTo(
          variant instanceof IntegrationAuthentication.Bearer
              || variant instanceof IntegrationAuthentication.OAuth2ClientCredentials);
      assertThat(IntegrationType.DELTA_SHARING.accepts(variant))
          .isEqualTo(variant instanceof IntegrationAuthentication.Bearer);
    }
  }
}
