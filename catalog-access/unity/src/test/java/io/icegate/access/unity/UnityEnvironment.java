package io.icegate.access.unity;

import io.icegate.access.client.CatalogClient;
import io.icegate.access.client.CatalogClientFactory;
import io.icegate.access.connection.CatalogAuthentication;
import io.icegate.access.connection.CatalogConnectionConfig;
import io.icegate.access.connection.CatalogProtocol;
import io.icegate.access.connection.ResolvedCatalogCredentials;
import io.icegate.access.delta.fixture.DeltaLogWriter;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.access.unity.fixture.UnityCatalogFixture;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.s3.S3Client;

/** One Unity fixture plus the s3proxy object store its Delta tables live on, for a test class. */
final class UnityEnvironment implements AutoCloseable {

  static final String BUCKET = "lake";

  final ObjectStoreFixture store;
  final UnityCatalogFixture unity;
  final S3Client s3;
  final DeltaLogWriter log;

  UnityEnvironment() throws Exception {
    ObjectStoreFixture.useChecksumsOnlyWhenRequired();
    store = ObjectStoreFixture.startS3Proxy();
    store.createBucket(BUCKET);
    s3 = store.newClient();
    log = new DeltaLogWriter(s3, BUCKET);
    unity = UnityCatalogFixture.start(store.accessKeyId(), store.secretAccessKey());
  }

  /** Connection properties reaching the object store, plus {@code extra}. */
  Map<String, String> properties(Map<String, String> extra) {
    Map<String, String> props = new HashMap<>(extra);
    props.put(UnitySettings.S3_ENDPOINT, store.endpoint().toString());
    props.put(UnitySettings.S3_REGION, ObjectStoreFixture.REGION);
    props.put(UnitySettings.S3_PATH_STYLE_ACCESS, "true");
    return props;
  }

  CatalogClient open(Map<String, String> extra) {
    return open(extra, CatalogAuthentication.none(), ResolvedCatalogCredentials.none());
  }

  CatalogClient open(
      Map<String, String> extra,
      CatalogAuthentication authentication,
      ResolvedCatalogCredentials credentials) {
    CatalogConnectionConfig config =
        new CatalogConnectionConfig(
            CatalogProtocol.UNITY, unity.uri(), properties(extra), authentication);
    return CatalogClientFactory.load().open(config, credentials, OutboundAddressPolicy.defaults());
  }

  String location(String path) {
    return "s3://" + BUCKET + "/" + path;
  }

  @Override
  public void close() throws Exception {
    unity.close();
    s3.close();
    store.close();
  }
}
