package dev.bulwark.core.batch;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The lane under Lincheck's stress mode: real threads, and real sending threads, as an engine's.
 */
public class StressedLane extends LaneUnderCheck {

  /** Shared by every instance Lincheck makes; daemon threads that end when idle. */
  private static final ExecutorService SENDING =
      Executors.newCachedThreadPool(
          task -> {
            Thread thread = new Thread(task, "lane-sending");
            thread.setDaemon(true);
            return thread;
          });

  public StressedLane() {
    super(SENDING);
  }
}
