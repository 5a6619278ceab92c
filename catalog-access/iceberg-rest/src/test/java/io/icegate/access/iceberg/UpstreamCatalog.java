package io.icegate.access.iceberg;

import io.icegate.access.client.CatalogClient;
import io.icegate.access.client.CatalogClientFactory;
import io.icegate.access.connection.CatalogAuthentication;
import io.icegate.access.connection.CatalogConnectionConfig;
import io.icegate.access.connection.CatalogProtocol;
import io.icegate.access.connection.ResolvedCatalogCredentials;
import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.access.network.OutboundAddressPolicy;
import java.util.HashMap;
import java.util.Map;

/** Starts s3proxy plus the seeded upstream catalog for one test class and opens clients on it. */
final class UpstreamCatalog implements AutoCloseable {

  final ObjectStoreFixture store;
  final IcebergRestFixture fixture;
  final CatalogClientFactory factory = CatalogClientFactory.load();

  UpstreamCatalog() throws Exception {
    store = ObjectStoreFixture.startS3Proxy();
    fixture = IcebergRestFixture.start(store).seed();
  }

  /** Connection properties: the store's S3 settings, a small page size so pagination happens. */
  Map<String, String> properties() {
    Map<String, String> properties = new HashMap<>(store.s3Settings());
    properties.put("rest-page-size", "2");
    return properties;
  }

  CatalogConnectionConfig config(CatalogAuthentication authentication) {
    return config(authentication, properties());
  }

  CatalogConnectionConfig config(
      CatalogAuthentication authentication, Map<String, String> properties) {
    return new CatalogConnectionConfig(
        CatalogProtocol.ICEBERG_REST, fixture.uri(), properties, authentication);
  }

  CatalogClient anonymous() {
    return factory.open(config(CatalogAuthentication.none()), ResolvedCatalogCredentials.none());
  }

  CatalogClient open(CatalogConnectionConfig config, ResolvedCatalogCredentials credentials) {
    return factory.open(config, credentials, OutboundAddressPolicy.defaults());
  }

  @Override
  public void close() throws Exception {
    fixture.close();
    store.close();
  }
}
