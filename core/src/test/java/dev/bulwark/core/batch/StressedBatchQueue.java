package dev.bulwark.core.batch;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The batch queue under Lincheck's stress mode: real threads, and real sending threads, as an
 * engine's.
 */
public class StressedBatchQueue extends BatchQueueUnderCheck {

  /** Shared by every instance Lincheck makes; daemon threads that end when idle. */
  private static final ExecutorService SENDING =
      Executors.newCachedThreadPool(
          task -> {
            Thread thread = new Thread(task, "queue-sending");
            thread.setDaemon(true);
            return thread;
          });

  public StressedBatchQueue() {
    super(SENDING);
  }
}
