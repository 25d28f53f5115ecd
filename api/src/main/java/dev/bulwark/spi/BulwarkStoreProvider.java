package dev.bulwark.spi;

import java.util.Set;

/**
 * Found through {@link java.util.ServiceLoader}, or as a CDI bean when the store needs container
 * resources; {@code bulwark.store} chooses one by {@link #id()}.
 */
public interface BulwarkStoreProvider {

  /** The value of {@code bulwark.store} that selects this store: local, redis, jpa. */
  String id();

  BulwarkStore open(StoreContext context);

  /**
   * Every key this store reads, in full ({@code bulwark.redis.url} …). A start checks them with its
   * other keys, so that a misspelt one is reported with the rest instead of being ignored; empty
   * (the default) leaves the keys under {@code bulwark.<id>.} to the store to check.
   */
  default Set<String> keys() {
    return Set.of();
  }
}
