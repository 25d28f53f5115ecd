package dev.bulwark.benchmarks.redis;

import dev.bulwark.BulkheadHandle;
import dev.bulwark.LockHandle;
import dev.bulwark.LockMode;
import dev.bulwark.RateLimiterHandle;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulwarkEngine;
import java.util.HashMap;
import java.util.Map;

/**
 * Bulwark on the Redis store through its programmatic API, without CDI: one engine, one bulkhead,
 * one rate limit and one lock family, with limits so high that nobody waits.
 */
public final class BulwarkOnRedis implements AutoCloseable {

  static final String BULKHEAD = "bench-bh";
  static final String RATE_LIMIT = "bench-rate";
  static final String LOCK = "bench-lock";

  private final BulwarkEngine engine;
  private final BulkheadHandle bulkhead;
  private final RateLimiterHandle rateLimiter;
  private final LockHandle lock;

  /** The uncontended setting: nothing ever waits or is rejected. */
  public BulwarkOnRedis() {
    this(Map.of());
  }

  /** The same engine with some keys replaced, e.g. a small bulkhead for the contended runs. */
  public BulwarkOnRedis(Map<String, String> overrides) {
    Map<String, String> config = new HashMap<>();
    config.put("bulwark.store", "redis");
    config.put("bulwark.redis.url", RedisTarget.URL);
    // the benchmarks' keys all start with "bench:", so that their commands can be told apart
    config.put("bulwark.redis.key-prefix", "bench:bulwark:");
    config.put("bulwark.bulkhead." + BULKHEAD + ".value", "1000000");
    // acquire() may wait, as an annotated method with a waiting time does; it never has to
    config.put("bulwark.bulkhead." + BULKHEAD + ".waiting-time", "10s");
    // one permit per nanosecond, the finest rate a definition allows: never the limiting factor
    config.put("bulwark.rate-limit." + RATE_LIMIT + ".value", "1000000000");
    config.put("bulwark.rate-limit." + RATE_LIMIT + ".window", "1s");
    config.put("bulwark.lock." + LOCK + ".lease", "30s");
    config.put("bulwark.lock." + LOCK + ".waiting-time", "10s");
    config.putAll(overrides);
    engine = BulwarkEngine.start(ConfigLookup.of(RedisTarget.withRelease(config)));
    bulkhead = engine.programmatic().bulkhead(BULKHEAD);
    rateLimiter = engine.programmatic().rateLimiter(RATE_LIMIT);
    lock = engine.programmatic().lock(LOCK);
  }

  /** Another bulkhead of the same engine, configured by the overrides given to the constructor. */
  public BulkheadHandle bulkhead(String name) {
    return engine.programmatic().bulkhead(name);
  }

  /** Another rate limit of the same engine, configured by the overrides. */
  public RateLimiterHandle rateLimiter(String name) {
    return engine.programmatic().rateLimiter(name);
  }

  /** Acquire, then release at once. */
  public void bulkhead() {
    bulkhead.acquire().close();
  }

  public boolean rateLimit() {
    return rateLimiter.tryAcquire();
  }

  /** The lock {@link #lock(String, LockMode)} takes, to hold it as long as the caller wants. */
  public LockHandle lockHandle() {
    return lock;
  }

  /** Lock {@code key} in {@code mode}, then unlock at once. */
  public long lock(String key, LockMode mode) {
    try (var permit = lock.lock(key, mode)) {
      return permit.fencingToken();
    }
  }

  @Override
  public void close() {
    engine.close();
  }
}
