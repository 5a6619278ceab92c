package io.icegate.admin;

import io.icegate.core.account.AccountService;
import io.icegate.core.durability.CleanupStep;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.overlay.assembly.Services;
import java.util.List;

/**
 * The admin API over the one service graph: its routes' operations built from {@link Services},
 * and the servlet serving them. The gateway and admin-api's own tests start it the same way.
 */
public final class AdminApi {

  private AdminApi() {}

  /**
   * The admin servlet over {@code services}.
   *
   * @param forgetTokens cleanup after an account's deletion beyond the services' own (the
   *     server's token cache)
   * @param maxBodyBytes largest request body read
   */
  public static AdminServlet servlet(Services services, CleanupStep forgetTokens,
      long maxBodyBytes) {
    return servlet(services, forgetTokens, maxBodyBytes, null);
  }

  /**
   * As {@link #servlet(Services, CleanupStep, long)}, issuing tokens that live at most {@code
   * maxTokenLifetime} (null: no maximum).
   */
  public static AdminServlet servlet(Services services, CleanupStep forgetTokens,
      long maxBodyBytes, java.time.Duration maxTokenLifetime) {
    return servlet(services, forgetTokens, maxBodyBytes, maxTokenLifetime,
        CatalogOverlay.MIN_REFRESH_INTERVAL);
  }

  /**
   * As {@link #servlet(Services, CleanupStep, long, java.time.Duration)}, the schedule views under
   * {@code refreshFloor}, the shortest interval the server's scheduler runs.
   */
  public static AdminServlet servlet(Services services, CleanupStep forgetTokens,
      long maxBodyBytes, java.time.Duration maxTokenLifetime, java.time.Duration refreshFloor) {
    AdminOperations operations = new AdminOperations(
        new AccountService(services.repositories(), services.core().creates(),
            services.core().tokens(), services.accountDeletion(List.of(forgetTokens)),
            maxTokenLifetime),
        services.core().catalogs(),
        services.integrations(),
        new UpstreamOperations(services.validator(), services.discovery()),
        services.overlays(),
        services.cascade(),
        new ReconcileRoutes(services.reconcileOperations(), services.capture()),
        new TableRoutes(services.tableStates()),
        services.schedules(refreshFloor));
    return new AdminServlet(operations, services.core().tokens()::resolve, (int) maxBodyBytes);
  }
}
