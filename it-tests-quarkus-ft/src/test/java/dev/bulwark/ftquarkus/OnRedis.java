package dev.bulwark.ftquarkus;

import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.tck.TestServices;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The application on a real Redis, under a key prefix of this test run, and engines of their own on
 * the same server and prefix that stand for the other JVMs of the cluster.
 */
public class OnRedis implements QuarkusTestProfile {

  /** The same in the profile and the tests, which Quarkus may load in two class loaders. */
  static final String PREFIX = "ftq:" + ProcessHandle.current().pid() + ":";

  @Override
  public Map<String, String> getConfigOverrides() {
    return Map.of(
        "bulwark.store",
        "redis",
        "bulwark.redis.url",
        TestServices.redis().url(),
        "bulwark.redis.key-prefix",
        PREFIX);
  }

  /**
   * Another JVM's engine, as far as the store can tell: its own connections, the same keys. Its
   * programmatic bulkhead of {@code name} takes the application's cap, {@code value}.
   */
  static BulwarkEngine otherEngine(String name, int value) {
    Map<String, String> config = new HashMap<>();
    config.put("bulwark.store", "redis");
    config.put("bulwark.redis.url", TestServices.redis().url());
    config.put("bulwark.redis.key-prefix", PREFIX);
    config.put("bulwark.bulkhead." + name + ".value", String.valueOf(value));
    return BulwarkEngine.builder(ConfigLookup.of(config)).start();
  }

  static void deleteKeys() {
    try (RedisClient redis = RedisClient.create(URI.create(TestServices.redis().url()))) {
      ScanParams match = new ScanParams().match(PREFIX + "*").count(1000);
      String cursor = ScanParams.SCAN_POINTER_START;
      do {
        ScanResult<String> page = redis.scan(cursor, match);
        List<String> keys = page.getResult();
        if (!keys.isEmpty()) {
          redis.del(keys.toArray(String[]::new));
        }
        cursor = page.getCursor();
      } while (!ScanParams.SCAN_POINTER_START.equals(cursor));
    }
  }
}
