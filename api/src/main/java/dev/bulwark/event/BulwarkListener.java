package dev.bulwark.event;

/**
 * Receives every {@link BulwarkEvent}. Register one through {@link java.util.ServiceLoader} ({@code
 * META-INF/services/dev.bulwark.event.BulwarkListener}) or, in a CDI application, observe the
 * events instead. A listener runs on the thread of the call it reports, so it must be quick and
 * must not throw (what it throws is logged and dropped); with no listener and no observer nothing
 * is measured or allocated for events.
 */
@FunctionalInterface
public interface BulwarkListener {

  void on(BulwarkEvent event);
}
