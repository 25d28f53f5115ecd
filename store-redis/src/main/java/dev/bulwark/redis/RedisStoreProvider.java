package dev.bulwark.redis;

import dev.bulwark.redis.client.RedisSettings;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.BulwarkStoreProvider;
import dev.bulwark.spi.StoreContext;
import java.util.Set;

/** {@code bulwark.store=redis}. */
public final class RedisStoreProvider implements BulwarkStoreProvider {

  @Override
  public String id() {
    return "redis";
  }

  @Override
  public BulwarkStore open(StoreContext context) {
    return RedisStore.open(RedisSettings.from(context::config), context.grantListener());
  }

  @Override
  public Set<String> keys() {
    return RedisSettings.KEYS;
  }
}
