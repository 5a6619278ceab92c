package io.icegate.admin;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.overlay.reconcile.MassRetirement;
import io.icegate.overlay.reconcile.OverlayCapture;
import io.icegate.overlay.reconcile.ReconcileOperation;
import io.icegate.overlay.reconcile.ReconcileOperations;
import java.util.Objects;

/**
 * HTTP mapping of reconciliation (DESIGN.md, reconcile route): {@code POST
 * .../overlays/{overlay}/reconcile} answers 200 with the report, or with {@code Prefer:
 * respond-async} 202 with the operation and its {@code Location}; {@code ?confirmRetirement=true}
 * lets a run retire every relation the Overlay holds (issue 21); {@code GET
 * .../operations/{operation}} answers the operation; {@code POST .../overlays/{overlay}/capture}
 * answers 200 with the capture report. The logic lives in overlay-engine.
 */
public final class ReconcileRoutes {
  private final ReconcileOperations operations;
  private final OverlayCapture capture;

  public ReconcileRoutes(ReconcileOperations operations, OverlayCapture capture) {
    this.operations = Objects.requireNonNull(operations, "operations");
    this.capture = Objects.requireNonNull(capture, "capture");
  }

  AdminReply handle(AdminCall call) {
    String account = call.var("account");
    return switch (call.route()) {
      case RECONCILE_OVERLAY -> {
        String overlay = call.var("overlay");
        MassRetirement retirement = retirement(call);
        if (!call.respondAsync()) {
          yield AdminReply.json(200, operations.reconcile(account, overlay, retirement));
        }
        ReconcileOperation operation = operations.submit(account, overlay, retirement);
        yield AdminReply.json(202, operation)
            .withHeader("Location", "/admin/v1/accounts/" + account + "/operations/"
                + operation.id())
            .withHeader("Preference-Applied", "respond-async");
      }
      case CAPTURE_OVERLAY -> AdminReply.json(200, capture.capture(account, call.var("overlay")));
      case GET_OPERATION -> {
        String id = call.var("operation");
        yield AdminReply.json(200, operations.get(account, id).orElseThrow(() ->
            new IcegateException(ErrorCode.NOT_FOUND, null, "operation", id)));
      }
      default -> throw new IllegalArgumentException("not a reconcile route: " + call.route());
    };
  }

  /** {@code ?confirmRetirement=true|false} (default false): may the run retire everything. */
  private static MassRetirement retirement(AdminCall call) {
    return switch (call.query().getOrDefault("confirmRetirement", "false")) {
      case "true" -> MassRetirement.CONFIRMED;
      case "false" -> MassRetirement.REFUSED;
      default -> throw IcegateException.invalidArgument("confirmRetirement must be true or false");
    };
  }
}
