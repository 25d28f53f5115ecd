package dev.bulwark.core.engine;

import dev.bulwark.event.BulwarkListener;
import dev.bulwark.event.StoreOutageEnded;
import dev.bulwark.event.StoreOutageStarted;
import dev.bulwark.spi.StoreException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * Tells when the store stops answering and when it answers again, once each per outage. While the
 * store answers, a call pays one volatile read here.
 */
final class OutageWatch {

  private static final Logger LOG = Logger.getLogger(OutageWatch.class.getName());
  private static final long UP = 0;

  private final String store;
  private final BulwarkListener listener;
  private final AtomicLong downSince = new AtomicLong(UP);

  /**
   * @param listener null when nobody listens
   */
  OutageWatch(String store, BulwarkListener listener) {
    this.store = store;
    this.listener = listener;
  }

  void failed(StoreException cause) {
    if (downSince.get() == UP && downSince.compareAndSet(UP, System.nanoTime() | 1)) {
      if (listener != null) {
        Listeners.deliver(listener, new StoreOutageStarted(store, cause.getMessage()), LOG);
      }
    }
  }

  void answered() {
    if (downSince.get() != UP) {
      long since = downSince.getAndSet(UP);
      if (since != UP && listener != null) {
        Listeners.deliver(
            listener,
            new StoreOutageEnded(store, Duration.ofNanos(System.nanoTime() - since)),
            LOG);
      }
    }
  }
}
