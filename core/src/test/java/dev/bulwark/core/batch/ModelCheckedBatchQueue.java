package dev.bulwark.core.batch;

/**
 * The batch queue under Lincheck's model checker, which explores the interleavings of the
 * operations' threads. Its sending side runs a batch at once on the thread that hands it over, as a
 * closed engine's does: the model checker did not run a thread that the batch queue's executor
 * started, and reported the execution as hung; the sending threads' interleavings are covered by
 * the stress mode and by {@link BatchQueueTest}.
 */
public class ModelCheckedBatchQueue extends BatchQueueUnderCheck {

  public ModelCheckedBatchQueue() {
    super(Runnable::run);
  }
}
