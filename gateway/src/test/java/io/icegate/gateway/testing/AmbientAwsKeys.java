package io.icegate.gateway.testing;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Wrong AWS keys in the system properties the SDK's default credential chain reads first, for the
 * life of a test class: the chain then never reaches for instance metadata, and a store write
 * succeeds only with a Catalog's own key pair. {@link #close} restores what was there.
 */
public final class AmbientAwsKeys implements AutoCloseable {
  private static final List<String> PROPERTIES = List.of("aws.accessKeyId", "aws.secretAccessKey");

  private final Map<String, String> saved = new HashMap<>();

  private AmbientAwsKeys() {
    for (String property : PROPERTIES) {
      String value = System.getProperty(property);
      if (value != null) {
        saved.put(property, value);
      }
      System.setProperty(property, "wrong-ambient-" + property);
    }
  }

  /** Sets wrong ambient keys until {@link #close}. */
  public static AmbientAwsKeys wrong() {
    return new AmbientAwsKeys();
  }

  @Override
  public void close() {
    for (String property : PROPERTIES) {
      if (saved.containsKey(property)) {
        System.setProperty(property, saved.get(property));
      } else {
        System.clearProperty(property);
      }
    }
  }
}
