package io.icegate.gateway.fixturestore;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The layout of the stored-bytes fixture under {@code src/test/resources/fixture-store} (see its
 * README): a data dir as the previous main left it ({@value #DATA}: the SQLite store and the
 * CredentialStore's master key), the upstreams' saved state ({@value #UPSTREAM}, {@link
 * FixtureUpstreams}) and what the generator observed ({@value #EXPECTATIONS}). Also the admin
 * request bodies that carry upstream addresses, which the generator creates with and the test
 * patches with, so both name the same members.
 */
final class FixtureStore {
  static final String RESOURCE = "fixture-store";
  static final String DATA = "data";
  static final String STORE_FILE = "icegate.db";
  static final String UPSTREAM = "upstream";
  static final String EXPECTATIONS = "expectations.json";

  /** Names the fixture's resources have (their ids are in the expectations). */
  static final String ACCOUNT = "acme";
  static final String LAKEHOUSE = "lakehouse";
  static final String FEDERATED = "federated";
  static final String ICEBERG = "iceberg-upstream";
  static final String UNITY = "unity-upstream";
  static final String SHARING = "sharing-upstream";

  private static final ObjectMapper JSON = new ObjectMapper();

  private FixtureStore() {}

  /** The fixture's directory in the test class path (copied there from the test resources). */
  static Path resourceDir() {
    URL readme = FixtureStore.class.getClassLoader().getResource(RESOURCE + "/README.md");
    if (readme == null) {
      throw new IllegalStateException("no " + RESOURCE + " in the test resources");
    }
    try {
      return Path.of(readme.toURI()).getParent();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Copies the fixture's data dir ({@value #DATA}) into {@code target}, which is created. */
  static Path copyData(Path fixture, Path target) throws IOException {
    Files.createDirectories(target);
    try (Stream<Path> files = Files.list(fixture.resolve(DATA))) {
      for (Path file : files.toList()) {
        Files.copy(file, target.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    return target;
  }

  /**
   * The Catalog {@value #LAKEHOUSE}'s {@code storage} on the object store at {@code endpoint},
   * naming the access key id without its secret: what a PATCH that moves the endpoint sends (the
   * stored key pair is kept).
   */
  static ObjectNode lakehouseStorage(String endpoint) {
    ObjectNode s3 = JSON.createObjectNode()
        .put("endpoint", endpoint)
        .put("region", ObjectStoreFixture.REGION)
        .put("pathStyleAccess", true)
        .put("accessKeyId", ObjectStoreFixture.ACCESS_KEY_ID);
    ObjectNode storage = JSON.createObjectNode();
    storage.set("s3", s3);
    return storage;
  }

  /** As {@link #lakehouseStorage(String)} with the secret: what the create sends. */
  static ObjectNode lakehouseStorageWithKeys(String endpoint) {
    ObjectNode storage = lakehouseStorage(endpoint);
    ((ObjectNode) storage.get("s3")).put("secretAccessKey", ObjectStoreFixture.SECRET_ACCESS_KEY);
    return storage;
  }

  /** A PATCH (or part of a create) moving an Integration to {@code uri} and {@code properties}. */
  static ObjectNode address(String uri, Map<String, String> properties) {
    ObjectNode body = JSON.createObjectNode().put("uri", uri);
    if (properties != null) {
      body.set("properties", JSON.valueToTree(properties));
    }
    return body;
  }

  static String text(ObjectNode body) {
    try {
      return JSON.writeValueAsString(body);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
