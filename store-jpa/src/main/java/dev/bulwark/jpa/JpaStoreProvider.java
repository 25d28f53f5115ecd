package dev.bulwark.jpa;

import dev.bulwark.jpa.setup.JpaSettings;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.BulwarkStoreProvider;
import dev.bulwark.spi.StoreContext;
import java.util.Set;

/** {@code bulwark.store=jpa}. */
public final class JpaStoreProvider implements BulwarkStoreProvider {

  @Override
  public String id() {
    return "jpa";
  }

  @Override
  public BulwarkStore open(StoreContext context) {
    return JpaStore.open(JpaSettings.from(context::config), context.grantListener());
  }

  @Override
  public Set<String> keys() {
    return JpaSettings.KEYS;
  }
}
