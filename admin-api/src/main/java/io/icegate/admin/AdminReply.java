package io.icegate.admin;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An admin answer before it is written: status, content type, body and headers (e.g. ETag).
 *
 * @param body the body bytes, or {@code null} for none
 */
public record AdminReply(int status, String contentType, byte[] body, Map<String, String> headers) {
  public AdminReply {
    headers = Map.copyOf(headers);
  }

  /** A JSON reply of {@code value}. */
  static AdminReply json(int status, Object value) {
    return new AdminReply(status, "application/json", AdminJson.write(value), Map.of());
  }

  /** This reply with one more header. */
  AdminReply withHeader(String name, String value) {
    Map<String, String> all = new LinkedHashMap<>(headers);
    all.put(name, value);
    return new AdminReply(status, contentType, body, all);
  }
}
