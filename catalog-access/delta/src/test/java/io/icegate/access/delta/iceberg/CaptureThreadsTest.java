package io.icegate.access.delta.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The capture pool is bounded: a burst of captures (each hands up to four tasks to it) queues
 * work instead of making a thread per task, and every queued task still runs.
 */
class CaptureThreadsTest {

  @Test
  void aBurstOfTasksRunsOnAtMostTheBoundOfThreadsAndAllOfThemRun() throws Exception {
    int tasks = CaptureThreads.MAX_THREADS * 5;
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger ran = new AtomicInteger();
    List<Future<?>> futures = new ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      futures.add(
          CaptureThreads.POOL.submit(
              () -> {
                release.await();
                ran.incrementAndGet();
                return null;
              }));
    }
    try {
      // every thread the pool could make is busy on a blocked task now, the rest wait in line
      assertThat(captureThreads()).isLessThanOrEqualTo(CaptureThreads.MAX_THREADS);
      assertThat(ran.get()).isZero();
    } finally {
      release.countDown();
    }
    for (Future<?> future : futures) {
      future.get(60, TimeUnit.SECONDS);
    }
    assertThat(ran.get()).isEqualTo(tasks);
    assertThat(captureThreads()).isLessThanOrEqualTo(CaptureThreads.MAX_THREADS);
  }

  private static long captureThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().equals("icegate-delta-capture") && t.isAlive())
        .count();
  }
}
