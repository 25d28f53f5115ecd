package dev.bulwark.core.local;

import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.BulwarkStoreProvider;
import dev.bulwark.spi.StoreContext;

/** {@code bulwark.store=local}: the default. */
public final class LocalStoreProvider implements BulwarkStoreProvider {

  public static final String ID = "local";

  @Override
  public String id() {
    return ID;
  }

  @Override
  public BulwarkStore open(StoreContext context) {
    return new LocalStore(context.grantListener());
  }
}
