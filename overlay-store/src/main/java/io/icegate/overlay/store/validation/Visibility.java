package io.icegate.overlay.store.validation;

/**
 * Whether clients may query a Table through the gateway, and if not, why (issue 10,
 * "Visibility"). Data only: where an administrator reads more (the admin route of a Table's
 * validation errors) is the admin API's to say.
 */
public sealed interface Visibility {
  /** The answer for every visible Table. */
  Visibility VISIBLE = new Visible();

  /** The answer for a managed Table whose current capture has not been validated. */
  Visibility PENDING = new Pending();

  /** {@code null} when visible; otherwise why not, in a sentence for a person. */
  String reason();

  /** Whether the Table appears in listings and loads: exactly when there is no reason not to. */
  default boolean visible() {
    return reason() == null;
  }

  /** A local Table, a managed one whose current capture validated clean, or one overridden. */
  record Visible() implements Visibility {
    @Override
    public String reason() {
      return null;
    }
  }

  /** A managed Table whose current capture has not been validated yet. */
  record Pending() implements Visibility {
    @Override
    public String reason() {
      return "validation pending";
    }
  }

  /**
   * A managed Table whose current capture validated with errors.
   *
   * @param errorCount how many error records the validation published (at least 1)
   */
  record Failed(int errorCount) implements Visibility {
    @Override
    public String reason() {
      return errorCount + (errorCount == 1 ? " validation error" : " validation errors");
    }
  }
}
