package io.icegate.gateway.fileio;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.Resource;
import io.icegate.core.repo.Repositories;
import io.icegate.gateway.testing.GatewayFixture;
import io.icegate.overlay.store.OverlayStore;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;
import org.jclouds.blobstore.domain.StorageMetadata;
import org.jclouds.blobstore.options.ListContainerOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Catalog whose warehouse is {@code s3://}: the gateway writes table metadata through S3FileIO
 * to an S3-compatible store (s3proxy in this JVM, filesystem backend, on a free loopback port).
 * Credentials come from the AWS SDK's default chain (system properties here); endpoint, path-style
 * access and region from the Catalog's properties, which the config route also hands to clients.
 */
class S3WarehouseTest {
  private static final String KEY = "s3-test-access-key";
  private static final String SECRET = "s3-test-secret-key-0123456789";
  private static final List<String> AWS_PROPERTIES = List.of("aws.accessKeyId",
      "aws.secretAccessKey", "aws.region", "aws.requestChecksumCalculation",
      "aws.responseChecksumValidation");

  private static BlobStoreContext blobs;
  private static S3Proxy proxy;
  private static GatewayFixture gateway;

  @BeforeAll
  static void start() throws Exception {
    Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
    Properties backend = new Properties();
    backend.setProperty("jclouds.filesystem.basedir",
        Files.createTempDirectory("icegate-s3").toString());
    blobs = ContextBuilder.newBuilder("filesystem-nio2").credentials(KEY, SECRET)
        .overrides(backend).build(BlobStoreContext.class);
    blobs.getBlobStore().createContainerInLocation(null, "lake");
    proxy = S3Proxy.builder()
        .blobStore(blobs.getBlobStore())
        .endpoint(URI.create("http://127.0.0.1:0"))
        .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, KEY, SECRET)
        .ignoreUnknownHeaders(true)
        .build();
    proxy.start();
    while (!"STARTED".equals(proxy.getState())) {
      Thread.sleep(10);
    }
    System.setProperty("aws.accessKeyId", KEY);
    System.setProperty("aws.secretAccessKey", SECRET);
    System.setProperty("aws.region", "us-east-1");
    // s3proxy does not implement the SDK's default CRC checksum trailers.
    System.setProperty("aws.requestChecksumCalculation", "WHEN_REQUIRED");
    System.setProperty("aws.responseChecksumValidation", "WHEN_REQUIRED");
    gateway = GatewayFixture.start();
  }

  @AfterAll
  static void stop() throws Exception {
    gateway.close();
    proxy.stop();
    blobs.close();
    AWS_PROPERTIES.forEach(System::clearProperty);
  }

  @Test
  void tablesOfAnS3CatalogLiveInTheBucket() throws Exception {
    Repositories repos = OverlayStore.repositories(gateway.gateway().store(), Clock.systemUTC());
    Resource<Account> account =
        repos.accounts().getByName(NameScope.ACCOUNT_WIDE, "default").orElseThrow();
    Map<String, String> s3 = new HashMap<>();
    s3.put("s3.endpoint", "http://127.0.0.1:" + proxy.getPort());
    s3.put("s3.path-style-access", "true");
    s3.put("client.region", "us-east-1");
    repos.catalogs(account.id()).create(new Catalog("lake", "s3://lake/warehouse", s3));

    Map<String, String> props = new HashMap<>();
    props.put("uri", gateway.icebergUri());
    props.put("warehouse", "lake");
    props.put("token", GatewayFixture.TOKEN);
    try (RESTCatalog catalog = new RESTCatalog()) {
      catalog.initialize("lake", props);
      catalog.createNamespace(Namespace.of("ns"));
      Table table = catalog.createTable(TableIdentifier.of("ns", "t"),
          new Schema(Types.NestedField.required(1, "id", Types.LongType.get())),
          PartitionSpec.unpartitioned());
      assertThat(table.location()).isEqualTo("s3://lake/warehouse/ns/t");
      table.newFastAppend().appendFile(DataFiles.builder(PartitionSpec.unpartitioned())
          .withPath(table.location() + "/data/f.parquet")
          .withFileSizeInBytes(10).withRecordCount(1).build()).commit();
      assertThat(catalog.loadTable(TableIdentifier.of("ns", "t")).currentSnapshot()).isNotNull();
    }

    List<String> keys = new ArrayList<>();
    for (StorageMetadata entry : blobs.getBlobStore()
        .list("lake", ListContainerOptions.Builder.prefix("warehouse/ns/t/metadata/").recursive())) {
      keys.add(entry.getName());
    }
    assertThat(keys).anyMatch(k -> k.endsWith(".metadata.json"));
    assertThat(keys).filteredOn(k -> k.endsWith(".metadata.json")).hasSize(2);
  }

  /**
   * A Catalog created over the admin API with {@code storage.s3} keys uses those keys (from the
   * CredentialStore), not the server's ambient ones: the ambient keys are wrong here.
   */
  @Test
  void storageKeysOfTheCatalogAreUsed() throws Exception {
    System.setProperty("aws.accessKeyId", "wrong-ambient-key");
    System.setProperty("aws.secretAccessKey", "wrong-ambient-secret");
    try {
      String accountId = OverlayStore.repositories(gateway.gateway().store(), Clock.systemUTC())
          .accounts().getByName(NameScope.ACCOUNT_WIDE, "default").orElseThrow().id();
      java.net.http.HttpResponse<String> created = gateway.send("POST",
          "/admin/v1/accounts/" + accountId + "/catalogs",
          "{\"name\":\"keyed\",\"warehouse\":\"s3://lake/keyed\",\"storage\":{\"s3\":{"
              + "\"endpoint\":\"http://127.0.0.1:" + proxy.getPort() + "\",\"region\":"
              + "\"us-east-1\",\"pathStyleAccess\":true,\"accessKeyId\":\"" + KEY + "\","
              + "\"secretAccessKey\":\"" + SECRET + "\"}}}");
      assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
      assertThat(created.body()).doesNotContain(SECRET);
      Map<String, String> props = new HashMap<>();
      props.put("uri", gateway.icebergUri());
      props.put("warehouse", "keyed");
      props.put("token", GatewayFixture.TOKEN);
      try (RESTCatalog catalog = new RESTCatalog()) {
        catalog.initialize("keyed", props);
        catalog.createNamespace(Namespace.of("ns"));
        Table table = catalog.createTable(TableIdentifier.of("ns", "t"),
            new Schema(Types.NestedField.required(1, "id", Types.LongType.get())),
            PartitionSpec.unpartitioned());
        assertThat(table.location()).isEqualTo("s3://lake/keyed/ns/t");
        assertThat(blobs.getBlobStore().list("lake",
            org.jclouds.blobstore.options.ListContainerOptions.Builder.prefix("keyed/")
                .recursive()).size()).isPositive();
      }
    } finally {
      System.setProperty("aws.accessKeyId", KEY);
      System.setProperty("aws.secretAccessKey", SECRET);
    }
  }
}
