package io.icegate.access.delta.iceberg;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * An executor that runs each task on the thread that submits it, for iceberg-core's {@code
 * scanManifestsWith}. Iceberg waits for tasks on its worker pool by polling every 10 ms (its {@code
 * Tasks}), so every parallel step of a snapshot commit costs a poll interval even when its work
 * takes a fraction of that; a commit of a small change has less work than the wait.
 */
final class CallingThread extends AbstractExecutorService {

  /** Shared: it holds no thread and no state of a task. */
  static final CallingThread EXECUTOR = new CallingThread();

  private CallingThread() {}

  @Override
  public void execute(Runnable task) {
    task.run();
  }

  /** Never shut down: it is shared, and Iceberg never shuts down an executor it is given. */
  @Override
  public void shutdown() {}

  @Override
  public List<Runnable> shutdownNow() {
    return List.of();
  }

  @Override
  public boolean isShutdown() {
    return false;
  }

  @Override
  public boolean isTerminated() {
    return false;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return false;
  }
}
