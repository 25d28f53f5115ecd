package dev.bulwark.jpa;

import dev.bulwark.core.log.BulwarkLog;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Deletes requests whose lease ran out, every cleanup interval: the steps of a limit delete its
 * expired rows too, but a key nobody touches again (a crashed JVM's lock on a key used once) would
 * keep its rows without this.
 */
final class Cleanup implements AutoCloseable {

  private static final BulwarkLog LOG = BulwarkLog.of(Cleanup.class);

  private final StoreCore core;
  private final ScheduledExecutorService timer;
  private final JvmStop jvmStop;

  Cleanup(StoreCore core, Duration interval, JvmStop jvmStop) {
    this.core = core;
    this.jvmStop = jvmStop;
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "bulwark-jpa-cleanup-" + core.instance());
              thread.setDaemon(true);
              return thread;
            });
    long millis = interval.toMillis();
    timer.scheduleWithFixedDelay(this::runQuietly, millis, millis, TimeUnit.MILLISECONDS);
  }

  /** Deletes every expired request now; returns how many. */
  int run() {
    return core.transactions()
        .run(
            "delete expired requests",
            em ->
                em.createQuery("DELETE FROM ClaimRow c WHERE c.expiresAt <= :now")
                    .setParameter("now", core.nowMicros(em))
                    .executeUpdate());
  }

  private void runQuietly() {
    if (jvmStop.begun()) {
      return;
    }
    try {
      run();
    } catch (RuntimeException e) {
      LOG.debug("Bulwark: deleting expired requests failed; trying again later", e);
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
