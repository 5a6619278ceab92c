package io.icegate.overlay.reconcile;

import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.core.credential.CredentialStore;
import io.icegate.core.durability.CreateRequest;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.CatalogStorage;
import io.icegate.core.model.Resource;
import io.icegate.overlay.generated.CatalogFiles;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.io.FileIO;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The object-store warehouse of the generated-files collection tests, for one test class: an
 * s3proxy of its own (not the lake of {@link UnityDeltaUpstream}) with the bucket {@link #BUCKET}
 * and the keys {@code warehouse-key} and the secret the test gives, so that a Catalog on it can
 * only reach it with its own storage keys; and an {@link S3FileIO} with those keys, to look at
 * what is there. {@link #createCatalog} makes a Catalog on it with those keys as its storage keys,
 * and {@link #catalogFiles} reaches such Catalogs as the gateway does. Started before the class's
 * tests and stopped after them. Register it with
 * {@code @RegisterExtension static final GeneratedWarehouse warehouse = new
 * GeneratedWarehouse(SECRET);}.
 */
final class GeneratedWarehouse implements BeforeAllCallback, AfterAllCallback {
  static final String BUCKET = "generated";

  private final String secretAccessKey;
  private ObjectStoreFixture store;
  private S3FileIO io;

  GeneratedWarehouse(String secretAccessKey) {
    this.secretAccessKey = secretAccessKey;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    // the order among a class's extensions is not fixed: set the SDK's checksum mode here too
    ObjectStoreFixture.useChecksumsOnlyWhenRequired();
    store = ObjectStoreFixture.startS3Proxy("warehouse-key", secretAccessKey);
    store.createBucket(BUCKET);
    io = new S3FileIO();
    io.initialize(new HashMap<>(store.s3FileIoProperties()));
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    io.close();
    store.close();
  }

  ObjectStoreFixture store() {
    return store;
  }

  /** A FileIO of the warehouse with its keys. */
  S3FileIO io() {
    return io;
  }

  /**
   * Creates Catalog {@code name} of {@code h}'s account whose warehouse is {@code
   * s3://generated/<directory>}, with this store's keys as its storage keys (the secret goes to
   * the credential store).
   */
  Resource<Catalog> createCatalog(ReconcileHarness h, String name, String directory) {
    String location = "s3://" + BUCKET + "/" + directory;
    CatalogStorage.S3 s3Storage = new CatalogStorage.S3(
        store.endpoint().toString(), "us-east-1", true, store.accessKeyId(), 0);
    return h.services.core().catalogs().create(h.account, new Catalog(name, location, Map.of(),
        new CatalogStorage(s3Storage)), secretAccessKey, CreateRequest.plain())
        .outcome().resource();
  }

  /**
   * Catalogs' FileIOs as the gateway builds them: each Catalog's settings and its secret from
   * {@code credentials}, read at first use (one cache per call: one gateway). A supplier, so that
   * the FileIOs can be handed to a harness before the harness, and its credential store, exist.
   */
  CatalogFiles catalogFiles(Supplier<CredentialStore> credentials) {
    Map<String, FileIO> ios = new ConcurrentHashMap<>();
    return c -> ios.computeIfAbsent(c.id(), id -> {
      CatalogStorage.S3 settings = c.spec().storage().s3();
      String secret = credentials.get().read(id, settings.credentialGeneration())
          .orElseThrow(() -> new IllegalStateException("no storage secret for " + id))
          .get("secretAccessKey");
      Map<String, String> properties = new HashMap<>(store.s3Settings());
      properties.put("s3.access-key-id", settings.accessKeyId());
      properties.put("s3.secret-access-key", secret);
      S3FileIO catalogIo = new S3FileIO();
      catalogIo.initialize(properties);
      return catalogIo;
    });
  }
}
