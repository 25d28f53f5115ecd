package dev.bulwark.redis;

import dev.bulwark.redis.client.RedisSettings;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.GrantListener;
import dev.bulwark.tck.StoreFixture;
import java.util.Map;
import java.util.Optional;

/**
 * The Redis store under the contract suites: every opened store is one JVM (an instance id and a
 * wake-up subscription of its own) on the test server, all under one random key prefix that is
 * deleted afterwards. Hand-overs arrive by pub/sub, so a marker published on a JVM's channel
 * flushes them; leases expire in real time.
 */
final class RedisStoreFixture extends StoreFixture {

  private final TestRedis redis = new TestRedis(TestRedisServer.url());

  @Override
  protected BulwarkStore openStore(GrantListener listener) {
    Map<String, String> config =
        Map.of(
            "bulwark.redis.url", redis.url(),
            "bulwark.redis.key-prefix", redis.prefix(),
            "bulwark.redis.pool-size", "8");
    RedisStore store =
        RedisStore.open(RedisSettings.from(k -> Optional.ofNullable(config.get(k))), listener);
    if (!store.wakeUpsSubscribed()) {
      store.close();
      throw new AssertionError("no wake-up subscription for a store on " + redis.url());
    }
    return store;
  }

  @Override
  public boolean jvmsShareState() {
    return true;
  }

  @Override
  public long clockNanos() {
    return redis.serverMicros() * 1_000;
  }

  @Override
  public String storeName() {
    return "the Redis store";
  }

  @Override
  public boolean sendWakeUpMarker(BulwarkStore store, long marker) {
    RedisStore redisStore = (RedisStore) store;
    redis
        .redis()
        .publish(
            redis.prefix() + "wake:" + redisStore.instance(), redisStore.wakeUpNotice(marker, 0));
    return true;
  }

  @Override
  protected void cleanUp() {
    redis.cleanUp();
  }
}
