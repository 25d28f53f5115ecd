package dev.bulwark.jpa;

import dev.bulwark.core.log.BulwarkLog;
import dev.bulwark.spi.GrantListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Tells this JVM's listener of hand-overs that other JVMs made to its queued requests. A release in
 * another JVM marks the granted row; this JVM finds its marked rows once per check interval, or at
 * once when a {@link WakeUpSignal} (PostgreSQL's NOTIFY) says there are some, clears the marks and
 * tells the listener in the order the requests had queued.
 */
final class WakeUps implements AutoCloseable {

  private static final BulwarkLog LOG = BulwarkLog.of(WakeUps.class);

  /** How soon a round whose look for hand-overs failed tries again. */
  private static final Duration RETRY_AFTER_FAILURE = Duration.ofSeconds(1);

  private final StoreCore core;
  private final GrantListener listener;
  private final WakeUpSignal signal;
  private final Duration checkInterval;
  private final Thread thread;
  private final JvmStop jvmStop;
  private volatile boolean running = true;

  /**
   * How many looks for hand-overs succeeded after one that failed: a failed look may have cleared
   * marks whose hand-overs it never told (its commit went through, its answer did not arrive).
   */
  private final AtomicLong recoveries = new AtomicLong();

  private volatile boolean failing;

  WakeUps(
      StoreCore core,
      GrantListener listener,
      WakeUpSignal signal,
      Duration checkInterval,
      JvmStop jvmStop) {
    this.core = core;
    this.jvmStop = jvmStop;
    this.listener = listener;
    this.signal = signal;
    this.checkInterval = checkInterval;
    this.thread = new Thread(this::run, "bulwark-jpa-wake-ups-" + core.instance());
    thread.setDaemon(true);
    thread.start();
  }

  /** The PostgreSQL notification channel of a JVM's store instance. */
  static String channel(String instance) {
    return "bulwark_" + instance;
  }

  /**
   * Tells the listener of every hand-over marked for this JVM until now; returns once they are
   * told. Calls are serialised, so a later call never overtakes an earlier one's wake-ups.
   */
  synchronized void deliver() {
    List<long[]> marked;
    try {
      marked = findMarked();
    } catch (RuntimeException e) {
      mayHaveLost(); // it may have cleared marks it never told
      throw e;
    }
    if (failing) {
      recoveries.incrementAndGet();
      failing = false;
      listener.wakeUpsChanged();
    }
    for (long[] handOver : marked) {
      listener.granted(handOver[0], handOver[1]);
    }
  }

  /**
   * A hand-over to this JVM may have gone untold outside the looks (a step that lost its connection
   * may have committed one to a waiter of this JVM, which only its answer would have told): the
   * number is -1 until the next look succeeds.
   */
  void mayHaveLost() {
    if (!failing) {
      failing = true;
      listener.wakeUpsChanged();
    }
  }

  /**
   * No hand-over to this JVM is lost while the looks for them succeed: a mark stays until a look
   * clears it and tells it. So the number changes only after a failed look (-1 until one succeeds
   * again), see {@link dev.bulwark.spi.BulwarkStore#wakeUpEpoch()}.
   */
  long epoch() {
    return failing ? -1 : recoveries.get();
  }

  private List<long[]> findMarked() {
    return core.transactions()
        .run(
            "find hand-overs to this JVM",
            em -> {
              List<Object[]> rows =
                  em.createQuery(
                          "SELECT c.id, c.requestId, c.token FROM ClaimRow c"
                              + " WHERE c.instance = :me AND c.notice = true ORDER BY c.seq",
                          Object[].class)
                      .setParameter("me", core.instance())
                      .getResultList();
              List<long[]> told = new ArrayList<>();
              for (Object[] row : rows) {
                // only the mark is written, and only while it is there: a renewal of the row
                // is kept, and a hand-over the caller learnt of from a step's answer (which
                // cleared the mark meanwhile) is not told twice
                int cleared =
                    em.createQuery(
                            "UPDATE ClaimRow c SET c.notice = false"
                                + " WHERE c.id = :id AND c.notice = true")
                        .setParameter("id", row[0])
                        .executeUpdate();
                if (cleared == 1) {
                  told.add(
                      new long[] {((Number) row[1]).longValue(), ((Number) row[2]).longValue()});
                }
              }
              return told;
            });
  }

  private void run() {
    // the first look at once: it is the slow one (the provider prepares its queries), and made
    // while the application starts it cannot be in flight when a stop closes an H2 database
    Duration wait = Duration.ZERO;
    while (running) {
      try {
        signal.await(wait);
        if (running && !jvmStop.begun()) {
          deliver();
          wait = checkInterval;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        // an outage: the waiters poll, and the hand-overs owed (a lost notification's among them)
        // are looked for again soon, not a whole check interval later
        LOG.debug("Bulwark: looking for hand-overs failed", e);
        wait =
            checkInterval.compareTo(RETRY_AFTER_FAILURE) < 0 ? checkInterval : RETRY_AFTER_FAILURE;
      }
    }
  }

  @Override
  public void close() {
    running = false;
    // first the signal: a thread waiting on it returns
    signal.close();
    thread.interrupt();
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
