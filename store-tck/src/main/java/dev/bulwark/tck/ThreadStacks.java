package dev.bulwark.tck;

import java.util.Map;

/**
 * Every thread's stack as text, for a test that gave up waiting: a run that hangs then says where
 * each thread was, which a timeout alone does not.
 */
public final class ThreadStacks {

  private ThreadStacks() {}

  /** Each live thread, its state and its frames. */
  public static String all() {
    StringBuilder stacks = new StringBuilder();
    for (Map.Entry<Thread, StackTraceElement[]> thread : Thread.getAllStackTraces().entrySet()) {
      stacks.append('\n').append(thread.getKey()).append(' ').append(thread.getKey().getState());
      for (StackTraceElement frame : thread.getValue()) {
        stacks.append("\n    at ").append(frame);
      }
    }
    return stacks.toString();
  }
}
