package io.icegate.cli.command;

import io.icegate.cli.http.AdminClient;
import java.util.HashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** Options every create takes (docs/admin-api.md: Idempotency-Key and onConflict). */
public final class CreateOptions {
  /** The server's {@code onConflict} values. */
  public enum OnConflict {
    error, replace, return_existing;

    String wire() {
      return name().replace('_', '-');
    }
  }

  @Option(names = "--idempotency-key", paramLabel = "KEY",
      description = "Replaying the same create with this key returns the first answer.")
  String idempotencyKey;

  @Option(names = "--on-conflict", paramLabel = "error|replace|return-existing",
      converter = OnConflictConverter.class,
      description = "When the name is taken: fail (default), replace it, or return the existing.")
  OnConflict onConflict;

  /** Path suffix: {@code ?onConflict=...} or empty. */
  String query() {
    return onConflict == null ? "" : "?onConflict=" + AdminClient.encode(onConflict.wire());
  }

  Map<String, String> headers() {
    Map<String, String> headers = new HashMap<>();
    if (idempotencyKey != null) {
      headers.put("Idempotency-Key", idempotencyKey);
    }
    return headers;
  }

  /** Accepts the wire spelling {@code return-existing}. */
  static final class OnConflictConverter implements picocli.CommandLine.ITypeConverter<OnConflict> {
    @Override
    public OnConflict convert(String value) {
      for (OnConflict candidate : OnConflict.values()) {
        if (candidate.wire().equals(value)) {
          return candidate;
        }
      }
      throw new picocli.CommandLine.TypeConversionException(
          "expected error, replace or return-existing, got '" + value + "'");
    }
  }
}
