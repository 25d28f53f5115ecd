package dev.bulwark.sample;

import dev.bulwark.event.Granted;
import dev.bulwark.event.LeaseExpiredAtRelease;
import dev.bulwark.event.Released;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts Bulwark's grant and release events per limit, as an application would observe them. */
@ApplicationScoped
public class BulkheadEvents {

  private final ConcurrentMap<String, AtomicInteger> counts = new ConcurrentHashMap<>();

  void onGranted(@Observes Granted granted) {
    count("granted " + granted.name());
  }

  void onReleased(@Observes Released released) {
    count("released " + released.name());
  }

  void onExpiredAtRelease(@Observes LeaseExpiredAtRelease expired) {
    count("expired at release " + expired.name());
  }

  private void count(String what) {
    counts.computeIfAbsent(what, k -> new AtomicInteger()).incrementAndGet();
  }

  int granted(String limit) {
    return get("granted " + limit);
  }

  int released(String limit) {
    return get("released " + limit);
  }

  int expiredAtRelease(String limit) {
    return get("expired at release " + limit);
  }

  private int get(String what) {
    AtomicInteger count = counts.get(what);
    return count == null ? 0 : count.get();
  }
}
