package dev.bulwark.it.cluster.harness;

import java.util.List;
import redis.clients.jedis.UnifiedJedis;

/**
 * Live concurrency counted in the recording Redis, beside the event files: every entry and exit of
 * a guarded body updates a counter and its high-water mark in one Lua call, so an overshoot is
 * caught even if it fell between two recorded timestamps. Kept per run (the record prefix), for the
 * whole cluster and per worker JVM; for locks, per key, with a counter of violations (a writer
 * beside anyone).
 */
public final class LiveCounters {

  /** INCR the cluster and the worker counter, raising each one's maximum; returns the cluster's. */
  private static final String ENTER =
      """
      local n = redis.call('INCR', KEYS[1])
      if n > tonumber(redis.call('GET', KEYS[2]) or '0') then redis.call('SET', KEYS[2], n) end
      local w = redis.call('INCR', KEYS[3])
      if w > tonumber(redis.call('GET', KEYS[4]) or '0') then redis.call('SET', KEYS[4], w) end
      return n
      """;

  private static final String EXIT =
      """
      redis.call('DECR', KEYS[1])
      redis.call('DECR', KEYS[2])
      return 0
      """;

  /** Forgets what a dead worker held: it will never record its exits. */
  private static final String FORGET =
      """
      local held = tonumber(redis.call('GET', KEYS[2]) or '0')
      redis.call('DECRBY', KEYS[1], held)
      redis.call('SET', KEYS[2], 0)
      return held
      """;

  /** A reader or writer enters a key; counts a violation if the mode's rule is broken. */
  private static final String LOCK_ENTER =
      """
      if ARGV[1] == 'WRITE' then
        local w = redis.call('INCR', KEYS[2])
        if w > 1 or tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then
          redis.call('INCR', KEYS[3])
        end
      else
        redis.call('INCR', KEYS[1])
        if tonumber(redis.call('GET', KEYS[2]) or '0') > 0 then redis.call('INCR', KEYS[3]) end
      end
      return 0
      """;

  private final UnifiedJedis redis;
  private final String prefix;

  public LiveCounters(UnifiedJedis redis, String prefix) {
    this.redis = redis;
    this.prefix = prefix;
  }

  public void enter(String worker) {
    redis.eval(
        ENTER,
        List.of(live(), liveMax(), live() + ":" + worker, liveMax() + ":" + worker),
        List.of());
  }

  public void exit(String worker) {
    redis.eval(EXIT, List.of(live(), live() + ":" + worker), List.of());
  }

  public void lockEnter(String key, String mode) {
    redis.eval(LOCK_ENTER, List.of(readers(key), writersKey(key), violations()), List.of(mode));
  }

  public void lockExit(String key, String mode) {
    redis.decr("WRITE".equals(mode) ? writersKey(key) : readers(key));
  }

  /** How many bodies {@code worker} is inside now. */
  public long inside(String worker) {
    return number(live() + ":" + worker);
  }

  /** Takes a killed worker's bodies out of the cluster count; returns how many it held. */
  public long forget(String worker) {
    return ((Number) redis.eval(FORGET, List.of(live(), live() + ":" + worker), List.of()))
        .longValue();
  }

  /** The most bodies inside at once, cluster-wide. */
  public long maxInside() {
    return number(liveMax());
  }

  /** The most bodies inside one worker at once. */
  public long maxInside(String worker) {
    return number(liveMax() + ":" + worker);
  }

  /** How many writers are inside the lock of {@code key} now. */
  public long writers(String key) {
    return number(writersKey(key));
  }

  public long lockViolations() {
    return number(violations());
  }

  private long number(String key) {
    String value = redis.get(key);
    return value == null ? 0 : Long.parseLong(value);
  }

  private String live() {
    return prefix + "live";
  }

  private String liveMax() {
    return prefix + "live-max";
  }

  private String readers(String key) {
    return prefix + "lock:" + key + ":readers";
  }

  private String writersKey(String key) {
    return prefix + "lock:" + key + ":writers";
  }

  private String violations() {
    return prefix + "lock-violations";
  }
}
