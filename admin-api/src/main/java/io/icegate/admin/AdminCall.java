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
 */
public record AdminCall(AdminRoute route, Map<String, String> variables, Map<String, String> query,
    byte[] body, String ifMatch, String idempotencyKey, TokenGrant caller) {

  /** Path variable {@code name}. */
  String var(String name) {
    return variables.get(name);
  }

  @Override
  public String toString() {
    return "AdminCall[" + route + ", " + variables + ", body " + body.length + " bytes]";
  }
}
