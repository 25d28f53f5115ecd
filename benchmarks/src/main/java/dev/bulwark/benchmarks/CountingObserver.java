package dev.bulwark.benchmarks;

import dev.bulwark.event.LimitEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.atomic.LongAdder;

/** A synchronous CDI observer of every limit event: what an application that observes pays. */
@ApplicationScoped
public class CountingObserver {

  private final LongAdder events = new LongAdder();

  void on(@Observes LimitEvent event) {
    events.increment();
  }

  public long events() {
    return events.sum();
  }
}
