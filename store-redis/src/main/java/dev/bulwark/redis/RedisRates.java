package dev.bulwark.redis;

import dev.bulwark.redis.client.LuaScript;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import dev.bulwark.spi.RateStore;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Rate limits in Redis: one reservation script per call, on the server's clock; the arithmetic is
 * the same as the local store's, in microseconds.
 */
final class RedisRates implements RateStore {

  private final RedisCalls redis;
  private final RedisKeys keys;
  private final Map<RateSpec, Call> calls = new ConcurrentHashMap<>();

  RedisRates(RedisCalls redis, RedisKeys keys) {
    this.redis = redis;
    this.keys = keys;
  }

  @Override
  public RateDecision reserve(RateSpec spec, long maxWaitNanos) {
    Call call = calls.computeIfAbsent(spec, this::callOf);
    long micros =
        (Long)
            redis.run(
                call.script(),
                call.keys(),
                List.of(
                    call.permits(),
                    call.windowMicros(),
                    Long.toString(TimeUnit.NANOSECONDS.toMicros(Math.max(0, maxWaitNanos)))));
    return decision(micros);
  }

  /**
   * Reads a rate script's reply: when granted, the delay before the reserved slot in micros (>= 0);
   * when rejected, -1 - the micros until the next permit.
   */
  static RateDecision decision(long reply) {
    return reply >= 0
        ? RateDecision.grantedAfter(TimeUnit.MICROSECONDS.toNanos(reply))
        : RateDecision.rejected(TimeUnit.MICROSECONDS.toNanos(-1 - reply));
  }

  /** What every reservation of one limit sends alike, worked out once. */
  private record Call(LuaScript script, List<String> keys, String permits, String windowMicros) {}

  private Call callOf(RateSpec spec) {
    LuaScript script;
    switch (spec.type()) {
      case FIXED:
        script = Scripts.RATE_FIXED;
        break;
      case ROLLING:
        script = Scripts.RATE_ROLLING;
        break;
      default:
        script = Scripts.RATE_SMOOTH;
    }
    return new Call(
        script,
        List.of(keys.rate(spec.name(), spec.type().name().toLowerCase(Locale.ROOT))),
        Integer.toString(spec.permits()),
        Long.toString(TimeUnit.NANOSECONDS.toMicros(spec.windowNanos())));
  }

  @Override
  public Optional<String> define(RateSpec spec) {
    return redis.define(keys.rateDefinition(spec.name()), spec.definition());
  }
}
