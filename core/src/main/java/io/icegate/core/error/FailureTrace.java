package io.icegate.core.error;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * An unexpected failure as a log line may show it where exception messages may not: the class of
 * each throwable in the cause chain and its stack frames, never a message. A message can quote
 * what the request carried (a JSON parser's error shows the input near the fault), and an admin
 * request carries secrets (Integration credentials); the frames say where it failed.
 */
public final class FailureTrace {

  /** Frames kept per throwable: where it was thrown, not the whole servlet stack. */
  static final int FRAMES = 12;

  private FailureTrace() {}

  /** The classes and top frames of {@code failure} and its causes, without any message. */
  public static String of(Throwable failure) {
    StringBuilder out = new StringBuilder();
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
      if (t != failure) {
        out.append("\ncaused by ");
      }
      out.append(t.getClass().getName());
      StackTraceElement[] frames = t.getStackTrace();
      for (int i = 0; i < Math.min(FRAMES, frames.length); i++) {
        out.append("\n\tat ").append(frames[i]);
      }
      if (frames.length > FRAMES) {
        out.append("\n\t... ").append(frames.length - FRAMES).append(" more");
      }
    }
    return out.toString();
  }
}
