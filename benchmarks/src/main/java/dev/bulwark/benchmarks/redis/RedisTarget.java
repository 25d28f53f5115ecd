package dev.bulwark.benchmarks.redis;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;

/**
 * The Redis server every library of the Redis benchmark talks to. An environment variable rather
 * than a system property, because JMH's forked JVMs inherit the environment but not {@code -D}.
 */
final class RedisTarget {

  /** {@code BULWARK_BENCH_REDIS_URL}, by default the local server on the standard port. */
  static final String URL =
      System.getenv().getOrDefault("BULWARK_BENCH_REDIS_URL", "redis://127.0.0.1:6379");

  /**
   * {@code BULWARK_BENCH_RELEASE}: {@code posted} runs Bulwark with posted releases; unset, the
   * library's default (awaited).
   */
  static final String RELEASE = System.getenv("BULWARK_BENCH_RELEASE");

  /** {@code config} with {@link #RELEASE} when it is set. */
  static Map<String, String> withRelease(Map<String, String> config) {
    Map<String, String> all = new HashMap<>(config);
    if (RELEASE != null) {
      all.put("bulwark.release", RELEASE);
    }
    return all;
  }

  static String host() {
    return URI.create(URL).getHost();
  }

  static int port() {
    int port = URI.create(URL).getPort();
    return port < 0 ? 6379 : port;
  }

  private RedisTarget() {}
}
