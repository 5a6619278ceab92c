package io.icegate.sparkit.testing;

/**
 * Stops a test class's processes and sessions in the order given, each even when an earlier one
 * failed to stop (a gateway or fixture child left running would outlive the build); the first
 * failure is thrown at the end with the later ones suppressed.
 */
public final class Teardown {
  private Teardown() {}

  /** Closes every non-null resource in order. */
  public static void closeAll(AutoCloseable... resources) throws Exception {
    Exception first = null;
    for (AutoCloseable resource : resources) {
      if (resource == null) {
        continue;
      }
      try {
        resource.close();
      } catch (Exception e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
