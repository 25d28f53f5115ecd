package dev.bulwark.jpa;

import dev.bulwark.core.log.BulwarkLog;
import dev.bulwark.jpa.tx.Failure;
import dev.bulwark.spi.Operation;
import dev.bulwark.spi.StoreException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Transactions that lost their connection before their answer came, perhaps after they committed
 * (the COMMIT's reply is what was lost): their callers were told the store failed, so whatever the
 * transaction granted is held by nobody. Each such batch's acquires and polls are given up (a
 * cancel, then a release of what the cancel finds granted: idempotent per request, harmless when
 * nothing committed) once the database answers again, tried every reconnect interval until then,
 * and dropped once the longest lease of the batch has run out, which reclaims them anyway.
 */
final class LostBatches implements AutoCloseable {

  private static final BulwarkLog LOG = BulwarkLog.of(LostBatches.class);

  /** A batch to give up, until its leases run out. */
  private record Lost(List<Operation> giveUp, Consumer<List<Operation>> apply, long untilNanos) {}

  private final long retryMillis;
  private final ConcurrentLinkedQueue<Lost> lost = new ConcurrentLinkedQueue<>();
  private ScheduledExecutorService timer; // guarded by this

  LostBatches(Duration reconnectInterval) {
    this.retryMillis = Math.max(10, reconnectInterval.toMillis());
  }

  /**
   * When {@code failure} may have followed a commit (the connection was lost), gives up the
   * acquires and polls of {@code operations} through {@code apply} now, or later if the database
   * does not answer yet.
   */
  void failed(
      StoreException failure,
      List<Operation> operations,
      long leaseMillis,
      Consumer<List<Operation>> apply) {
    if (Failure.of(failure) != Failure.UNREACHABLE) {
      return; // the database answered: the transaction rolled back
    }
    // every withdrawal first, so no release hands a permit to a request about to be given up
    List<Operation> giveUp = new ArrayList<>();
    List<Operation> releases = new ArrayList<>();
    for (Operation operation : operations) {
      if (operation.kind() == Operation.Kind.ACQUIRE || operation.kind() == Operation.Kind.POLL) {
        giveUp.add(Operation.cancel(operation.key(), operation.requestId()));
        releases.add(Operation.release(operation.key(), operation.requestId()));
      }
    }
    giveUp.addAll(releases);
    if (giveUp.isEmpty()) {
      return;
    }
    lost.add(
        new Lost(giveUp, apply, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(leaseMillis)));
    startRetrying();
  }

  /** How many lost batches wait to be given up. */
  int size() {
    return lost.size();
  }

  private synchronized void startRetrying() {
    if (timer == null) {
      timer =
          Executors.newSingleThreadScheduledExecutor(
              task -> {
                Thread thread = new Thread(task, "bulwark-jpa-give-up");
                thread.setDaemon(true);
                return thread;
              });
      timer.scheduleWithFixedDelay(this::giveUpDue, 0, retryMillis, TimeUnit.MILLISECONDS);
    }
  }

  /** Gives up what it can; runs on its own thread, and in tests directly. */
  void giveUpDue() {
    long now = System.nanoTime();
    for (Lost batch : lost) {
      if (now - batch.untilNanos() >= 0) {
        lost.remove(batch); // its leases ran out: the store reclaims it
        continue;
      }
      try {
        batch.apply().accept(batch.giveUp());
        lost.remove(batch);
      } catch (RuntimeException stillDown) {
        LOG.debug("Bulwark: a lost batch is given up once the database answers", stillDown);
        return; // the next interval tries again
      }
    }
  }

  @Override
  public synchronized void close() {
    if (timer != null) {
      timer.shutdownNow();
    }
  }
}
