package dev.bulwark.core.batch;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The batch queue under Lincheck's stress mode in front of a pipelined store: three batches may be
 * out at once, their answers coming back on threads of their own, as a Redis pipeline's do.
 */
public class PipelinedBatchQueue extends BatchQueueUnderCheck {

  private static final ExecutorService SENDING = daemons("queue-sending");
  private static final ExecutorService REPLIES = daemons("queue-replies");

  public PipelinedBatchQueue() {
    super(SENDING, REPLIES, 3);
  }

  private static ExecutorService daemons(String name) {
    return Executors.newCachedThreadPool(
        task -> {
          Thread thread = new Thread(task, name);
          thread.setDaemon(true);
          return thread;
        });
  }
}
