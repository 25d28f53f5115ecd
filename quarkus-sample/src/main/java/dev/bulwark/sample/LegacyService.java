package dev.bulwark.sample;

import dev.bulwark.DistributedBulkhead;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Calls a fragile legacy backend that copes with only a couple of requests at once, whichever
 * instance of this service they come from.
 */
@ApplicationScoped
public class LegacyService {

  /** The key under which tests can hold calls to the legacy backend open. */
  public static final String DOWNSTREAM = "legacy";

  private final AtomicInteger running = new AtomicInteger();
  private final AtomicInteger maxRunning = new AtomicInteger();
  private final AtomicLong completed = new AtomicLong();

  @Inject SlowDownstream downstream;

  @ConfigProperty(name = "sample.legacy.call-duration", defaultValue = "2s")
  Duration callDuration;

  /**
   * One call to the legacy backend. The annotation says 10 at once; {@code application.properties}
   * lowers it to 2 with {@code bulwark.bulkhead.legacy-api.value=2}.
   */
  @DistributedBulkhead(name = "legacy-api", value = 10)
  public LegacyReply fetchReport(String customer) {
    int now = running.incrementAndGet();
    maxRunning.accumulateAndGet(now, Math::max);
    try {
      downstream.call(DOWNSTREAM, callDuration);
      completed.incrementAndGet();
      return new LegacyReply(customer, "report for " + customer, now);
    } finally {
      running.decrementAndGet();
    }
  }

  /** The calls running inside the bulkhead right now. */
  public int running() {
    return running.get();
  }

  /** The most calls that ever ran inside the bulkhead at once. */
  public int maxRunning() {
    return maxRunning.get();
  }

  public long completed() {
    return completed.get();
  }

  /** What {@link #fetchReport(String)} returns. */
  public record LegacyReply(String customer, String report, int concurrentCalls) {}
}
