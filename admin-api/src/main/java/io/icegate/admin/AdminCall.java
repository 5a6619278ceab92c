package io.icegate.admin;

import io.icegate.core.auth.TokenGrant;
import java.util.Map;

/**
 * One authorised admin request, free of servlet types.
 *
 * @param variables path variables ({@code account}, {@code catalog}, {@code integration})
 * @param query first value of each query parameter
 * @param body the request body (empty when none)
 * @param ifMatch the {@code If-Match} header or {@code null}
 * @param idempotencyKey the {@code Idempotency-Key} header or {@code null}
 * @param caller the token's grant ({@code null} on public routes)
 * @param prefer the {@code Prefer} header or {@code null} (RFC 7240; {@code respond-async})
 */
public record AdminCall(AdminRoute route, Map<String, String> variables, Map<String, String> query,
    byte[] body, String ifMatch, String idempotencyKey, TokenGrant caller, String prefer) {

  /** Path variable {@code name}. */
  String var(String name) {
    return variables.get(name);
  }

  /** Whether the caller asked for an asynchronous answer ({@code Prefer: respond-async}). */
  boolean respondAsync() {
    if (prefer == null) {
      return false;
    }
    for (String preference : prefer.split(",")) {
      if (preference.strip().split(";")[0].strip().equalsIgnoreCase("respond-async")) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return "AdminCall[" + route + ", " + variables + ", body " + body.length + " bytes]";
  }
}
