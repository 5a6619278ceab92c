package io.icegate.overlay.reconcile;

import java.util.List;

/**
 * The answer of a capture on request ({@code POST .../overlays/{overlay}/capture}).
 *
 * @param overlayId the captured Overlay
 * @param runGeneration the run generation the capture held (captures and reconciles exclude each
 *     other)
 * @param captured managed Iceberg Tables whose upstream state was captured anew
 * @param unchanged Tables whose capture already named the upstream metadata location (no write)
 * @param failed Tables whose capture failed, each with a warning
 * @param validated Tables whose new capture validated with no error
 * @param validationFailed Tables whose validation found errors or could not run, each with a
 *     warning
 * @param warnings one line per failed or skipped Table
 * @param durationMillis wall time
 */
public record CaptureReport(String overlayId, long runGeneration, long captured, long unchanged,
    long failed, long validated, long validationFailed, List<String> warnings,
    long durationMillis) {

  public CaptureReport {
    warnings = List.copyOf(warnings);
  }
}
