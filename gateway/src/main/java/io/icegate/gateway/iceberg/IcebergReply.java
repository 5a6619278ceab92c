package io.icegate.gateway.iceberg;

import java.util.Map;

/**
 * What to send back: a status, a body (an Iceberg response object, pre-serialized JSON bytes, or
 * null for none) and extra headers.
 */
public record IcebergReply(int status, Object body, Map<String, String> headers) {

  public static IcebergReply ok(Object body) {
    return new IcebergReply(200, body, Map.of());
  }

  public static IcebergReply noContent() {
    return new IcebergReply(204, null, Map.of());
  }
}
