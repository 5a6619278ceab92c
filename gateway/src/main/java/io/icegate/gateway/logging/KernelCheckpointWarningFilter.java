package io.icegate.gateway.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import org.slf4j.Marker;

/**
 * Logs Delta Kernel's "Cannot find a complete checkpoint. Listing from version 0." at DEBUG
 * instead of WARN (issue 23).
 *
 * <p>Why: Kernel says so on every load of a Delta table that has no checkpoint yet, which is
 * normal (Delta writers checkpoint every ten commits by default, so every young table has none),
 * and the Delta providers load every Delta table on every discovery and reconcile: the warning
 * repeated for each such table on each run and named no table. Kernel's other warnings from the
 * same class (a checkpoint deleted while it was being read, and its fallback) stay WARN.
 *
 * <p>A turbo filter because the message is Kernel's own: a logger level can only silence the
 * whole class, with those other warnings, and our code cannot change what Kernel logs. The
 * event is logged again at DEBUG on Kernel's logger, so {@code io.delta.kernel} at DEBUG shows it.
 */
final class KernelCheckpointWarningFilter extends TurboFilter {

  static final String LOGGER = "io.delta.kernel.internal.snapshot.SnapshotManager";
  static final String MESSAGE = "Cannot find a complete checkpoint";

  @Override
  public FilterReply decide(
      Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
    if (level != Level.WARN
        || format == null
        || !format.startsWith(MESSAGE)
        || !LOGGER.equals(logger.getName())) {
      return FilterReply.NEUTRAL;
    }
    // at DEBUG this event passes this filter (NEUTRAL above) and the logger's level decides
    logger.debug(marker, format, params);
    return FilterReply.DENY;
  }
}
