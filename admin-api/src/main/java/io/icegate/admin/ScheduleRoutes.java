package io.icegate.admin;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.jobs.SchedulerState;
import io.icegate.core.jobs.Schedules;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * HTTP mapping of the schedule views (issue 28): {@code GET .../overlays/{overlay}/schedule}
 * answers the Overlay's state, last success and attempt, next run, lag and last error (a problem
 * object); {@code GET .../integrations/{integration}/schedule} the Integration's effective plan.
 * The logic lives in core's {@link Schedules}.
 */
final class ScheduleRoutes {
  private final Schedules schedules;

  ScheduleRoutes(Schedules schedules) {
    this.schedules = Objects.requireNonNull(schedules, "schedules");
  }

  AdminReply handle(AdminCall call) {
    String account = call.var("account");
    return switch (call.route()) {
      case OVERLAY_SCHEDULE -> {
        Schedules.OverlaySchedule s = schedules.overlay(account, call.var("overlay"));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("state", s.state());
        out.put("lastSuccessAt", s.lastSuccessAt());
        out.put("lastAttemptAt", s.lastAttemptAt());
        out.put("nextRunAt", s.nextRunAt());
        out.put("lagMillis", s.lagMillis());
        out.put("lastError", problem(s.lastError()));
        yield AdminReply.json(200, out).withHeader("Cache-Control", "no-store");
      }
      case INTEGRATION_SCHEDULE -> {
        Schedules.IntegrationSchedule s =
            schedules.integration(account, call.var("integration"));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("interval", s.interval());
        out.put("retention", s.retention());
        out.put("includeNamespaces", s.scope());
        out.put("overlays", s.overlays());
        out.put("retries", s.retries());
        out.put("paused", s.paused());
        out.put("nextRunAt", s.nextRunAt());
        out.put("lastSuccessAt", s.lastSuccessAt());
        out.put("lastError", problem(s.lastError()));
        yield AdminReply.json(200, out).withHeader("Cache-Control", "no-store");
      }
      default -> throw new IllegalArgumentException("not a schedule route: " + call.route());
    };
  }

  /** A stored failure as the problem object the admin API answers errors with. */
  private static Map<String, Object> problem(SchedulerState.Problem problem) {
    if (problem == null) {
      return null;
    }
    int status = 500;
    try {
      status = ErrorCode.valueOf(problem.code()).httpStatus();
    } catch (IllegalArgumentException e) {
      // a code of a newer version: keep the default
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("type", "urn:icegate:problem:" + problem.code().toLowerCase(java.util.Locale.ROOT));
    out.put("title", problem.code());
    out.put("status", status);
    out.put("code", problem.code());
    out.put("detail", problem.message());
    if (!problem.details().isEmpty()) {
      out.put("details", problem.details()); // as the reconcile's own answer lists them
    }
    return out;
  }
}
