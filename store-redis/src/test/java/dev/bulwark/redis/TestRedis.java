package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.redis.client.RedisSettings;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.util.JedisURIHelper;

/**
 * One test's view of the Redis server: a key prefix of its own ({@code test:<random>:}), the stores
 * it opened (each plays one JVM) and a plain client to inspect the keys. {@link #cleanUp()} closes
 * the stores and deletes every key under the prefix (SCAN + DEL).
 */
final class TestRedis {

  private final String url;
  private final String prefix;
  private final RedisClient inspector;
  private final List<RecordingStore> stores = new ArrayList<>();

  TestRedis(String url) {
    this(url, RedisClient.create(URI.create(url)));
  }

  /**
   * With a read timeout of its own for the inspecting client, for a harness that sends it hundreds
   * of thousands of calls on a loaded machine, where Jedis' default of 2 s is sometimes exceeded.
   */
  TestRedis(String url, Duration readTimeout) {
    this(url, client(URI.create(url), readTimeout));
  }

  private TestRedis(String url, RedisClient inspector) {
    this.url = url;
    byte[] random = new byte[6];
    new SecureRandom().nextBytes(random);
    this.prefix = "test:" + HexFormat.of().formatHex(random) + ":";
    this.inspector = inspector;
  }

  private static RedisClient client(URI uri, Duration readTimeout) {
    DefaultJedisClientConfig.Builder config =
        DefaultJedisClientConfig.builder()
            .socketTimeoutMillis(Math.toIntExact(readTimeout.toMillis()))
            .user(JedisURIHelper.getUser(uri))
            .password(JedisURIHelper.getPassword(uri))
            .ssl(JedisURIHelper.isRedisSSLScheme(uri));
    if (JedisURIHelper.hasDbIndex(uri)) {
      config.database(JedisURIHelper.getDBIndex(uri));
    }
    return RedisClient.builder()
        .hostAndPort(JedisURIHelper.getHostAndPort(uri))
        .clientConfig(config.build())
        .build();
  }

  String url() {
    return url;
  }

  String prefix() {
    return prefix;
  }

  /** A plain client on the same server, to inspect and tamper with keys. */
  RedisClient redis() {
    return inspector;
  }

  /** The key layout under this test's prefix. */
  RedisKeys keys() {
    return new RedisKeys(prefix);
  }

  /** Opens a store as the engine does; each one is a separate "JVM" with its own instance id. */
  RecordingStore open() {
    return open(Map.of());
  }

  RecordingStore open(Map<String, String> extraSettings) {
    Map<String, String> config = new HashMap<>();
    config.put("bulwark.redis.url", url);
    config.put("bulwark.redis.key-prefix", prefix);
    config.put("bulwark.redis.pool-size", "4");
    config.putAll(extraSettings);
    RecordingStore store =
        RecordingStore.open(RedisSettings.from(k -> Optional.ofNullable(config.get(k))));
    stores.add(store);
    assertThat(store.store().wakeUpsSubscribed()).as("wake-up subscription").isTrue();
    return store;
  }

  /** Every key under this test's prefix, sorted. */
  TreeSet<String> keyNames() {
    TreeSet<String> found = new TreeSet<>();
    ScanParams match = new ScanParams().match(prefix + "*").count(1000);
    String cursor = ScanParams.SCAN_POINTER_START;
    do {
      ScanResult<String> page = inspector.scan(cursor, match);
      found.addAll(page.getResult());
      cursor = page.getCursor();
    } while (!ScanParams.SCAN_POINTER_START.equals(cursor));
    return found;
  }

  /** Asserts that every key of this test expires on its own (nothing may live forever). */
  void assertEveryKeyExpires() {
    for (String key : keyNames()) {
      assertThat(inspector.pttl(key)).as("PTTL of %s", key).isPositive();
    }
  }

  /** The server's clock (Redis TIME) in microseconds. */
  long serverMicros() {
    List<?> time = (List<?>) inspector.eval("return redis.call('TIME')");
    return Long.parseLong(String.valueOf(time.get(0))) * 1_000_000L
        + Long.parseLong(String.valueOf(time.get(1)));
  }

  long serverMillis() {
    return serverMicros() / 1000;
  }

  void cleanUp() {
    try {
      for (RecordingStore store : stores) {
        store.store().close();
      }
      TreeSet<String> left = keyNames();
      if (!left.isEmpty()) {
        inspector.del(left.toArray(String[]::new));
      }
    } finally {
      inspector.close();
    }
  }
}
