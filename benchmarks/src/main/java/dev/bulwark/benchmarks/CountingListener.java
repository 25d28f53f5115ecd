package dev.bulwark.benchmarks;

import dev.bulwark.event.BulwarkEvent;
import dev.bulwark.event.BulwarkListener;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.LongAdder;

/** A listener as cheap as one can be: the benchmark measures what delivering events costs. */
@ApplicationScoped
public class CountingListener implements BulwarkListener {

  private final LongAdder events = new LongAdder();

  @Override
  public void on(BulwarkEvent event) {
    events.increment();
  }

  public long events() {
    return events.sum();
  }
}
