package dev.bulwark.core.local;

import dev.bulwark.RateLimitSnapshot;
import dev.bulwark.core.rate.RateState;
import dev.bulwark.core.rate.ReservationOutcome;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import dev.bulwark.spi.RateStore;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Rate limits of one JVM: the core arithmetic over {@link LocalClock}, one state per name. */
final class LocalRates implements RateStore {

  private final Map<String, Limit> limits = new ConcurrentHashMap<>();

  @Override
  public RateDecision reserve(RateSpec spec, long maxWaitNanos) {
    Limit limit = limits.get(spec.name());
    if (limit == null) {
      limit = limits.computeIfAbsent(spec.name(), n -> new Limit(RateState.initial(spec.type())));
    }
    return limit.reserve(spec, maxWaitNanos);
  }

  @Override
  public RateLimitSnapshot inspect(RateSpec spec) {
    Limit limit = limits.get(spec.name());
    int available = limit == null ? spec.permits() : limit.available(spec, LocalClock.nowNanos());
    return new RateLimitSnapshot(spec.name(), spec.permits(), available);
  }

  /**
   * The state of one name, replaced whole by each reservation. Under the lock every reservation
   * extends the newest state, which is what keeps a rolling log's appends in place.
   */
  private static final class Limit {

    private RateState state;

    Limit(RateState state) {
      this.state = state;
    }

    synchronized int available(RateSpec spec, long now) {
      return state.available(spec, now);
    }

    synchronized RateDecision reserve(RateSpec spec, long maxWaitNanos) {
      ReservationOutcome outcome = state.reserve(spec, LocalClock.nowNanos(), maxWaitNanos);
      state = outcome.next();
      return outcome.decision();
    }
  }
}
