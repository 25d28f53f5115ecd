package dev.bulwark.core.batch;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The lane under Lincheck's stress mode: real threads, and a real background executor, as an
 * engine's store-call threads send what no waiting caller sends.
 */
public class StressedLane extends LaneUnderCheck {

  /** Shared by every instance Lincheck makes; daemon threads that end when idle. */
  private static final ExecutorService BACKGROUND =
      Executors.newCachedThreadPool(
          task -> {
            Thread thread = new Thread(task, "lane-background");
            thread.setDaemon(true);
            return thread;
          });

  public StressedLane() {
    super(BACKGROUND);
  }
}
