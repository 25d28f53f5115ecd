package dev.bulwark.it.cluster.harness;

import dev.bulwark.tck.TestServices;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import redis.clients.jedis.RedisClient;

/**
 * The Redis store under test: by default the Redis that {@link TestServices} finds (the one the
 * records go to as well), or a server or Cluster of the test's own. A run's space is a key prefix;
 * on the shared server its keys are deleted when the run ends, a server of the test's own is
 * discarded whole.
 */
public final class RedisUnderTest implements StoreUnderTest {

  /** The key prefix of a run's store keys in the config its workers get. */
  public static final String KEY_PREFIX = "bulwark.redis.key-prefix";

  private final String description;

  /** The keys that say where the server is; empty for the shared one. */
  private final Map<String, String> server;

  private RedisUnderTest(String description, Map<String, String> server) {
    this.description = description;
    this.server = server;
  }

  /** The Redis of {@link TestServices#redis()}, resolved when a run opens its space. */
  public static RedisUnderTest shared() {
    return new RedisUnderTest("redis", Map.of());
  }

  /** A standalone server of the test's own (one it stops and starts, for example). */
  public static RedisUnderTest standalone(String url) {
    return new RedisUnderTest("redis-own", Map.of("bulwark.redis.url", url));
  }

  /** A Redis Cluster of the test's own, by its node list. */
  public static RedisUnderTest cluster(String nodes) {
    return new RedisUnderTest("redis-cluster", Map.of("bulwark.redis.cluster-nodes", nodes));
  }

  /** A master group watched by Sentinels of the test's own. */
  public static RedisUnderTest sentinel(String master, String sentinelNodes) {
    return new RedisUnderTest(
        "redis-sentinel",
        Map.of(
            "bulwark.redis.sentinel.master",
            master,
            "bulwark.redis.sentinel.nodes",
            sentinelNodes));
  }

  @Override
  public StoreSpace open(String id, Path runDir) {
    boolean shared = server.isEmpty();
    String sharedUrl = shared ? TestServices.redis().url() : null;
    String prefix = "bulwark-it:" + id + ":store:";
    Map<String, String> config = new LinkedHashMap<>();
    config.put("bulwark.store", "redis");
    if (shared) {
      config.put("bulwark.redis.url", sharedUrl);
    }
    config.putAll(server);
    config.put(KEY_PREFIX, prefix);
    config.put("bulwark.redis.wake-up-check-interval", "500ms");
    config.put("bulwark.redis.connect-timeout", "2s");
    // the shared server never goes away in a run (an outage test has a server of its own): a reply
    // slowed by a loaded machine is no outage there
    config.put("bulwark.redis.read-timeout", shared ? "10s" : "2s");
    config.put("bulwark.redis.reconnect-interval", "1s");
    return new StoreSpace() {
      @Override
      public Map<String, String> config() {
        return config;
      }

      @Override
      public void close() {
        if (shared) {
          try (RedisClient redis = RedisClient.create(URI.create(sharedUrl))) {
            RedisKeys.deleteByPrefix(redis, prefix);
          }
        }
      }
    };
  }

  @Override
  public String toString() {
    return description;
  }
}
