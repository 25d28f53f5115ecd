package dev.bulwark.spi;

/**
 * Found through {@link java.util.ServiceLoader}, or as a CDI bean when the store needs container
 * resources; {@code bulwark.store} chooses one by {@link #id()}.
 */
public interface BulwarkStoreProvider {

  /** The value of {@code bulwark.store} that selects this store: local, redis, jpa. */
  String id();

  BulwarkStore open(StoreContext context);
}
