package dev.bulwark.faulttolerance;

import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.tck.TestServices;
import java.net.URI;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The Redis server the engines of one test share, under a key prefix of the test's own; {@link
 * #close()} deletes every key under it.
 */
final class SharedRedis implements AutoCloseable {

  private final String url = TestServices.redis().url();
  private final String prefix;

  SharedRedis() {
    byte[] random = new byte[6];
    new SecureRandom().nextBytes(random);
    prefix = "ftb:" + HexFormat.of().formatHex(random) + ":";
  }

  /** Points every engine started under {@code config} at this server and prefix. */
  Containers.Config configure(Containers.Config config) {
    return config
        .set("bulwark.store", "redis")
        .set("bulwark.redis.url", url)
        .set("bulwark.redis.key-prefix", prefix)
        .set("bulwark.redis.pool-size", "4");
  }

  /**
   * An engine of its own on this server and prefix, as another JVM's, with {@code config} added.
   */
  BulwarkEngine engine(Map<String, String> config) {
    Map<String, String> all = new HashMap<>(config);
    all.put("bulwark.store", "redis");
    all.put("bulwark.redis.url", url);
    all.put("bulwark.redis.key-prefix", prefix);
    return BulwarkEngine.builder(ConfigLookup.of(all)).start();
  }

  @Override
  public void close() {
    try (RedisClient redis = RedisClient.create(URI.create(url))) {
      ScanParams match = new ScanParams().match(prefix + "*").count(1000);
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
