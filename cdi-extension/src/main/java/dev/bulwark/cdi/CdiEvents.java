package dev.bulwark.cdi;

import dev.bulwark.core.log.BulwarkLog;
import dev.bulwark.event.BulwarkEvent;
import dev.bulwark.event.BulwarkListener;
import dev.bulwark.event.Granted;
import dev.bulwark.event.LeaseExpiredAtRelease;
import dev.bulwark.event.LeaseLost;
import dev.bulwark.event.LimitType;
import dev.bulwark.event.PassedThrough;
import dev.bulwark.event.Rejected;
import dev.bulwark.event.RejectionReason;
import dev.bulwark.event.Released;
import dev.bulwark.event.StoreOutageEnded;
import dev.bulwark.event.StoreOutageStarted;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.ObserverMethod;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Fires Bulwark's events as CDI events, so an application observes them with {@code @Observes} (on
 * the calling thread) or {@code @ObservesAsync} (on the container's executor: the call does not
 * wait for them). Registered only when the application has an observer of some event type, and
 * fires synchronously or asynchronously only where such observers exist, so an application that
 * observes nothing pays nothing.
 */
final class CdiEvents implements BulwarkListener {

  private static final BulwarkLog LOG = BulwarkLog.of(CdiEvents.class);

  /** One instance of each event type, to ask the container who observes it. */
  private static final List<BulwarkEvent> SAMPLES =
      List.of(
          new Granted(LimitType.BULKHEAD, "", "", Duration.ZERO),
          new Rejected(LimitType.BULKHEAD, "", "", RejectionReason.FULL, Duration.ZERO),
          new Released(LimitType.BULKHEAD, "", "", Duration.ZERO),
          new LeaseLost(LimitType.BULKHEAD, "", ""),
          new LeaseExpiredAtRelease(LimitType.BULKHEAD, "", ""),
          new PassedThrough(LimitType.BULKHEAD, "", ""),
          new StoreOutageStarted("", ""),
          new StoreOutageEnded("", Duration.ZERO));

  private final Event<Object> events;
  private final boolean sync;
  private final boolean async;

  private CdiEvents(Event<Object> events, boolean sync, boolean async) {
    this.events = events;
    this.sync = sync;
    this.async = async;
  }

  /** A forwarder when the application observes any Bulwark event; empty otherwise. */
  static Optional<BulwarkListener> forObservers(BeanManager beans) {
    boolean sync = false;
    boolean async = false;
    try {
      for (BulwarkEvent sample : SAMPLES) {
        Set<ObserverMethod<? super BulwarkEvent>> observers = beans.resolveObserverMethods(sample);
        for (ObserverMethod<?> observer : observers) {
          if (observer.isAsync()) {
            async = true;
          } else {
            sync = true;
          }
        }
      }
    } catch (UnsupportedOperationException e) {
      // a container that cannot say who observes: forward everything, both ways
      LOG.debug("Bulwark: cannot resolve observers; forwarding every event", e);
      sync = true;
      async = true;
    }
    return sync || async
        ? Optional.of(new CdiEvents(beans.getEvent(), sync, async))
        : Optional.empty();
  }

  @Override
  public void on(BulwarkEvent event) {
    if (sync) {
      events.fire(event);
    }
    if (async) {
      events.fireAsync(event);
    }
  }
}
