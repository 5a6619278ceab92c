package io.icegate.admin;

import io.icegate.core.model.Resource;
import io.icegate.core.model.Table;
import io.icegate.overlay.store.validation.Visibility;

/**
 * Why a Table is not query-visible, as the admin view ({@code visibilityReason}) and the gateway's
 * 403 on load say it: the validation store's reason and, for a failed validation, the admin route
 * that lists the errors ({@link AdminRoute#TABLE_VALIDATION_ERRORS}).
 */
public final class VisibilityReason {

  private VisibilityReason() {}

  /** The sentence for {@code table} with {@code visibility}; {@code null} when it is visible. */
  public static String of(Visibility visibility, Resource<Table> table) {
    if (!(visibility instanceof Visibility.Failed)) {
      return visibility.reason();
    }
    return visibility.reason() + "; see GET " + AdminRoute.TABLE_VALIDATION_ERRORS.path(
        table.accountId(), table.spec().catalogId(), table.id());
  }
}
