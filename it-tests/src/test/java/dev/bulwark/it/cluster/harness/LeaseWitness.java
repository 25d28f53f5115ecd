package dev.bulwark.it.cluster.harness;

import dev.bulwark.event.LeaseLost;
import dev.bulwark.it.cluster.history.EventLog;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Observes the {@link LeaseLost} events of the worker's JVM and notes each in its event log ({@code
 * INFO lease-lost:<n> <limit> <key> <nanos>}), so a test can tell that a holder was told its lease
 * had lapsed.
 */
@ApplicationScoped
public class LeaseWitness {

  // the event log exists before the container and outlives no worker: one per JVM
  private static volatile EventLog log;
  private static final AtomicInteger seen = new AtomicInteger();

  static void recordTo(EventLog eventLog) {
    log = eventLog;
  }

  void leaseLost(@Observes LeaseLost lost) {
    EventLog to = log;
    if (to != null) {
      to.info(
          "lease-lost:" + seen.incrementAndGet(),
          lost.name() + " " + lost.key() + " " + System.nanoTime());
    }
  }
}
