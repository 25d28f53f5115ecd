package dev.bulwark.it.cluster.history;

/**
 * Notes when the worker JVM as a whole stood still: a thread that sleeps 1 ms at a time and logs
 * each gap longer than {@link #THRESHOLD_NANOS} as a {@code STALL} line. A stalled JVM (a GC pause,
 * or no CPU for it among the processes sharing two cores) neither records its exits nor takes its
 * wake-ups in time, which shifts its recorded instants — the ordering checks excuse exactly those
 * shifts, and no others.
 */
public final class StallWatch {

  public static final long THRESHOLD_NANOS = 10_000_000;

  private StallWatch() {}

  public static void start(EventLog log) {
    Thread thread =
        new Thread(
            () -> {
              long last = System.nanoTime();
              while (true) {
                try {
                  Thread.sleep(1);
                } catch (InterruptedException e) {
                  return;
                }
                long now = System.nanoTime();
                if (now - last > THRESHOLD_NANOS) {
                  log.stalled(last, now);
                }
                last = now;
              }
            },
            "stall-watch");
    thread.setDaemon(true);
    thread.start();
  }
}
