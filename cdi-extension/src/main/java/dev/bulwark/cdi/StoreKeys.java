package dev.bulwark.cdi;

import dev.bulwark.spi.BulwarkStoreProvider;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;

/**
 * The keys of the stores on the class path, as each store's provider names them: a start checks
 * {@code bulwark.redis.*} and {@code bulwark.jpa.*} with its other keys, so that a misspelt store
 * key is reported with the rest instead of being ignored.
 */
public final class StoreKeys {

  private StoreKeys() {}

  public static Set<String> onClassPath() {
    Set<String> keys = new TreeSet<>();
    ServiceLoader.load(BulwarkStoreProvider.class, StoreKeys.class.getClassLoader())
        .forEach(provider -> keys.addAll(provider.keys()));
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    if (context != null) {
      ServiceLoader.load(BulwarkStoreProvider.class, context)
          .forEach(provider -> keys.addAll(provider.keys()));
    }
    return keys;
  }
}
