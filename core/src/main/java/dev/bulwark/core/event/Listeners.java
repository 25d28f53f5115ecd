package dev.bulwark.core.event;

import dev.bulwark.core.log.BulwarkLog;
import dev.bulwark.core.log.LogMessage;
import dev.bulwark.event.BulwarkEvent;
import dev.bulwark.event.BulwarkListener;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.ServiceLoader;

/** The application's listeners as one, or null when there is none (so nothing is measured). */
public final class Listeners {

  private static final BulwarkLog LOG = BulwarkLog.of(Listeners.class);

  private Listeners() {}

  /** The given listeners plus those {@link ServiceLoader} finds; null when there is none. */
  public static BulwarkListener combine(Collection<BulwarkListener> given) {
    List<BulwarkListener> all = new ArrayList<>(given);
    ServiceLoader.load(BulwarkListener.class, Listeners.class.getClassLoader()).forEach(all::add);
    if (all.isEmpty()) {
      return null;
    }
    if (all.size() == 1) {
      return all.get(0);
    }
    BulwarkListener[] each = all.toArray(BulwarkListener[]::new);
    return event -> {
      for (BulwarkListener listener : each) {
        deliver(listener, event, LOG);
      }
    };
  }

  /** Hands {@code event} over; a listener's failure never reaches the call it reports. */
  public static void deliver(BulwarkListener listener, BulwarkEvent event, BulwarkLog log) {
    try {
      listener.on(event);
    } catch (RuntimeException e) {
      log.warn(LogMessage.LISTENER_FAILED, e, event);
    }
  }
}
