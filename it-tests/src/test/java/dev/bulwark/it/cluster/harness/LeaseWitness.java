package dev.bulwark.it.cluster.harness;

import dev.bulwark.event.LeaseExpiredAtRelease;
import dev.bulwark.event.LeaseLost;
import dev.bulwark.it.cluster.history.EventLog;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Observes the {@link LeaseLost} and {@link LeaseExpiredAtRelease} events of the worker's JVM and
 * notes each in its event log ({@code INFO lease-lost:<n> <limit> <key> <nanos>}, {@code
 * lease-expired-at-release:<n> …}), so a test can tell that a holder was told its lease had lapsed.
 */
@ApplicationScoped
public class LeaseWitness {

  // the event log exists before the container and outlives no worker: one per JVM
  private static volatile EventLog log;
  private static final Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();

  static void recordTo(EventLog eventLog) {
    log = eventLog;
  }

  void leaseLost(@Observes LeaseLost lost) {
    note("lease-lost:", lost.name(), lost.key());
  }

  void leaseExpiredAtRelease(@Observes LeaseExpiredAtRelease expired) {
    note("lease-expired-at-release:", expired.name(), expired.key());
  }

  private static void note(String what, String limit, String key) {
    EventLog to = log;
    if (to != null) {
      int n = seen.computeIfAbsent(what, w -> new AtomicInteger()).incrementAndGet();
      to.info(what + n, limit + " " + key + " " + System.nanoTime());
    }
  }
}
