package io.icegate.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.repo.ResourceCodec;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CatalogStorageTest {
  private static final String ROLE = "arn:aws-cn:iam::123456789012:role/path/lake-reader";

  @Test
  void vendingSettingsSurviveTheStoreAndOldRecordsReadAsNoVending() {
    Instant t = Instant.parse("2026-11-29T20:00:00Z");
    CatalogStorage.S3 s3 = new CatalogStorage.S3("http://127.0.0.1:9000", "eu-west-1", true,
        "AKIDEXAMPLE", 2, false, new CatalogStorage.AssumeRole(ROLE,
            "https://sts.eu-west-1.amazonaws.com", 900, "tenant-7"));
    Resource<Catalog> catalog = new Resource<>("c-1", "acct", 1, 1, t, t,
        new Catalog("c", "s3://lake/c", Map.of(), new CatalogStorage(s3)));
    ResourceCodec<Catalog> codec = new ResourceCodec<>(Catalog.class);
    assertThat(codec.read(codec.write(catalog))).isEqualTo(catalog);
    assertThat(s3.assumeRole().partition()).isEqualTo("aws-cn");
    assertThat(s3.withCredentialGeneration(3).assumeRole()).isEqualTo(s3.assumeRole());

    // A record written before vending existed has neither member.
    String old = "{\"accountId\":\"acct\",\"configurationGeneration\":1,\"createdAt\":"
        + "\"2026-11-29T20:00:00Z\",\"generation\":1,\"id\":\"c-1\",\"spec\":{\"name\":\"c\","
        + "\"properties\":{},\"storage\":{\"s3\":{\"accessKeyId\":\"AK\",\"credentialGeneration\""
        + ":1,\"endpoint\":null,\"pathStyleAccess\":false,\"region\":null}},\"warehouse\":"
        + "\"s3://lake/c\"},\"updatedAt\":\"2026-11-29T20:00:00Z\"}";
    CatalogStorage.S3 read = codec.read(old.getBytes(StandardCharsets.UTF_8)).spec().storage()
        .s3();
    assertThat(read.vendStaticKeys()).isFalse();
    assertThat(read.assumeRole()).isNull();
    assertThat(read.credentialGeneration()).isEqualTo(1);
  }

  @Test
  void invalidSettingsNameTheirMember() {
    assertInvalid(() -> new CatalogStorage.AssumeRole(ROLE, null, 899, null),
        "storage.s3.durationSeconds");
    assertInvalid(() -> new CatalogStorage.AssumeRole(ROLE, null, 43201, null),
        "storage.s3.durationSeconds");
    assertInvalid(() -> new CatalogStorage.AssumeRole("arn:aws:iam::1:user/x", null, 900, null),
        "storage.s3.roleArn");
    assertInvalid(() -> new CatalogStorage.AssumeRole(ROLE, "https://sts.example.com/?a=b", 900,
        null), "storage.s3.stsEndpoint");
    assertInvalid(() -> new CatalogStorage.AssumeRole(ROLE, null, 900, "bad id with spaces"),
        "storage.s3.externalId");
    assertInvalid(() -> new CatalogStorage.S3(null, null, false, null, 0, true, null),
        "storage.s3.vendStaticKeys");
    assertInvalid(() -> new CatalogStorage.S3(null, null, false, "AK", 1, true,
        new CatalogStorage.AssumeRole(ROLE, null, 900, null)), "storage.s3.vendStaticKeys");
    assertThat(new CatalogStorage.AssumeRole(ROLE, "http://127.0.0.1:4566", 43200, "a:b/c")
        .durationSeconds()).isEqualTo(43200);
  }

  private static void assertInvalid(Runnable construct, String member) {
    assertThatThrownBy(construct::run).isInstanceOfSatisfying(IcegateException.class, e -> {
      assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
      assertThat(e.getMessage()).contains(member);
    });
  }
}
