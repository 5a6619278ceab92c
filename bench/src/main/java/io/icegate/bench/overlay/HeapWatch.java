package io.icegate.bench.overlay;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Heap high-water marks of a measured phase, two ways:
 *
 * <ul>
 *   <li>{@link Peak#poolPeakBytes}: the sum over heap pools of each pool's peak usage since {@link
 *       #reset} (garbage included; pools peak at different moments, so this over-states the true
 *       peak and is bounded by {@code -Xmx});
 *   <li>{@link Peak#liveAfterGcBytes}: the largest heap occupancy right after a collection, from
 *       the collectors' notifications, i.e. what the phase kept reachable (zero when no collection
 *       ran in the phase).
 * </ul>
 *
 * Everything in the JVM counts, the in-process upstream included.
 */
public final class HeapWatch implements AutoCloseable {
  /** The high-water marks since the last {@link #reset}, in bytes. */
  public record Peak(long poolPeakBytes, long liveAfterGcBytes, int collections) {}

  private final List<MemoryPoolMXBean> heapPools = ManagementFactory.getMemoryPoolMXBeans()
      .stream().filter(p -> p.getType() == MemoryType.HEAP).toList();
  private final AtomicLong liveAfterGc = new AtomicLong();
  private final AtomicLong collections = new AtomicLong();
  private final NotificationListener listener = (notification, handback) -> {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION
        .equals(notification.getType())) {
      return;
    }
    GarbageCollectionNotificationInfo info =
        GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
    long used = 0;
    for (Map.Entry<String, MemoryUsage> pool : info.getGcInfo().getMemoryUsageAfterGc()
        .entrySet()) {
      if (isHeapPool(pool.getKey())) {
        used += pool.getValue().getUsed();
      }
    }
    liveAfterGc.accumulateAndGet(used, Math::max);
    collections.incrementAndGet();
  };

  public HeapWatch() {
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((NotificationEmitter) gc).addNotificationListener(listener, null, null);
    }
  }

  /** Starts a new phase. */
  public void reset() {
    heapPools.forEach(MemoryPoolMXBean::resetPeakUsage);
    liveAfterGc.set(0);
    collections.set(0);
  }

  /** The marks since {@link #reset}. */
  public Peak peak() {
    long pools = heapPools.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
    return new Peak(pools, liveAfterGc.get(), (int) collections.get());
  }

  /** The heap's limit ({@code -Xmx}), in bytes. */
  public static long maxHeapBytes() {
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax();
  }

  private boolean isHeapPool(String name) {
    return heapPools.stream().anyMatch(p -> p.getName().equals(name));
  }

  @Override
  public void close() throws Exception {
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((NotificationEmitter) gc).removeNotificationListener(listener);
    }
  }
}
