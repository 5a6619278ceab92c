package io.icegate.overlay.store.validation;

/**
 * Whether clients may query a Table through the gateway (issue 10, "Visibility").
 *
 * @param visible whether it appears in listings and loads
 * @param reason {@code null} when visible; otherwise the sentence a 403 on load says (validation
 *     pending, or how many errors and the admin route listing them)
 */
public record Visibility(boolean visible, String reason) {
  /** The answer for every visible Table. */
  public static final Visibility VISIBLE = new Visibility(true, null);

  /** The reason of a managed Table whose current capture has not been validated. */
  public static final String PENDING_REASON = "validation pending";

  public Visibility {
    if (visible != (reason == null)) {
      throw new IllegalArgumentException("a reason is given exactly when not visible");
    }
  }

  /** Not visible, because {@code reason}. */
  public static Visibility hidden(String reason) {
    return new Visibility(false, reason);
  }
}
