package dev.bulwark.core.local;

import dev.bulwark.core.rate.RateState;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import dev.bulwark.spi.RateStore;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Rate limits of one JVM: the core algorithms over {@link LocalClock}, one state per name. */
final class LocalRates implements RateStore {

  private final Map<String, RateState> states = new ConcurrentHashMap<>();

  @Override
  public RateDecision reserve(RateSpec spec, long maxWaitNanos) {
    RateState state = states.get(spec.name());
    if (state == null) {
      state =
          states.computeIfAbsent(
              spec.name(), n -> RateState.create(spec.type(), LocalClock.nowNanos()));
    }
    synchronized (state) {
      return state.reserve(spec, LocalClock.nowNanos(), maxWaitNanos);
    }
  }
}
