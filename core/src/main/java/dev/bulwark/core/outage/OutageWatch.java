package dev.bulwark.core.outage;

import dev.bulwark.core.event.Listeners;
import dev.bulwark.core.log.BulwarkLog;
import dev.bulwark.event.BulwarkListener;
import dev.bulwark.event.StoreOutageEnded;
import dev.bulwark.event.StoreOutageStarted;
import dev.bulwark.spi.StoreException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Tells when the store stops answering and when it answers again (a call or the {@link OutageProbe}
 * got an answer), once each per outage, and what the current outage is for operators. While the
 * store answers, a call pays one volatile read here.
 */
public final class OutageWatch {

  private static final BulwarkLog LOG = BulwarkLog.of(OutageWatch.class);

  private final String store;
  private final BulwarkListener listener;
  private final OutageProbe probe;

  /** The outage in progress (monotonic start, for its length, and the public view); null if up. */
  private final AtomicReference<Down> down = new AtomicReference<>();

  private record Down(long sinceNanos, StoreOutage outage) {}

  /**
   * @param listener null when nobody listens
   * @param probe asks the store while it is unreachable, so the outage ends when it answers again
   *     even if no call comes
   */
  public OutageWatch(String store, BulwarkListener listener, OutageProbe probe) {
    this.store = store;
    this.listener = listener;
    this.probe = probe;
  }

  public void failed(StoreException cause) {
    if (down.get() == null
        && down.compareAndSet(
            null,
            new Down(
                System.nanoTime(),
                new StoreOutage(store, Instant.now(), String.valueOf(cause.getMessage()))))) {
      probe.start(this);
      if (listener != null) {
        Listeners.deliver(listener, new StoreOutageStarted(store, cause.getMessage()), LOG);
      }
    }
  }

  public void answered() {
    if (down.get() != null) {
      Down ended = down.getAndSet(null);
      if (ended != null && listener != null) {
        Listeners.deliver(
            listener,
            new StoreOutageEnded(store, Duration.ofNanos(System.nanoTime() - ended.sinceNanos())),
            LOG);
      }
    }
  }

  /** The outage calls are in now; empty while the store answers. */
  public Optional<StoreOutage> current() {
    Down now = down.get();
    return now == null ? Optional.empty() : Optional.of(now.outage());
  }
}
