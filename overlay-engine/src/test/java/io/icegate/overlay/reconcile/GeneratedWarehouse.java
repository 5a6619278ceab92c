package io.icegate.overlay.reconcile;

import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import java.util.HashMap;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The object-store warehouse of the generated-files collection tests, for one test class: an
 * s3proxy of its own (not the lake of {@link UnityDeltaUpstream}) with the bucket {@link #BUCKET}
 * and the keys {@code warehouse-key} and the secret the test gives, so that a Catalog on it can
 * only reach it with its own storage keys; and an {@link S3FileIO} with those keys, to look at
 * what is there. Started before the class's tests and stopped after them. Register it with
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
}
