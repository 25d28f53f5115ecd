package dev.bulwark.cdi;

import java.util.Map;
import java.util.function.Function;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;

/**
 * Boots Weld SE with Bulwark and the given beans only, under the given config (set as system
 * properties, which MicroProfile Config reads, for the container's life).
 */
final class WeldContainers {

  private WeldContainers() {}

  static <T> T withContainer(
      Map<String, String> config, Function<WeldContainer, T> work, Class<?>... beans) {
    config.forEach(System::setProperty);
    try (WeldContainer container = boot(beans)) {
      return work.apply(container);
    } finally {
      config.keySet().forEach(System::clearProperty);
    }
  }

  static WeldContainer boot(Class<?>... beans) {
    return new Weld()
        .disableDiscovery()
        .addExtension(new BulwarkExtension())
        .addBeanClasses(
            BulwarkRuntime.class,
            StartupCheck.class,
            BulkheadInterceptor.class,
            RateLimitInterceptor.class,
            LockInterceptor.class)
        .addBeanClasses(beans)
        .initialize();
  }
}
