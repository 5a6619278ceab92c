package io.icegate.core.credential;

import java.util.Map;
import java.util.TreeMap;

/**
 * The secret members of one credential generation, by member name (e.g. {@code token}, {@code
 * clientSecret}, {@code secretAccessKey}). {@link #toString()} names the members and never shows a
 * value, so a secret cannot leak through a log line or an exception message built from this
 * record.
 *
 * @param values member name to secret value; never empty
 */
public record SecretValues(Map<String, String> values) {
  public SecretValues {
    if (values == null || values.isEmpty()) {
      throw new IllegalArgumentException("a credential needs at least one secret member");
    }
    for (Map.Entry<String, String> e : values.entrySet()) {
      if (e.getKey() == null || e.getValue() == null || e.getValue().isEmpty()) {
        throw new IllegalArgumentException("secret members must be named and non-empty");
      }
    }
    values = Map.copyOf(values);
  }

  /** The value of member {@code name}, or {@code null}. */
  public String get(String name) {
    return values.get(name);
  }

  @Override
  public String toString() {
    return "SecretValues" + new TreeMap<>(values).keySet() + " (values redacted)";
  }
}
