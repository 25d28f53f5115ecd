package dev.bulwark.benchmarks;

import java.util.Map;
import org.jboss.weld.environment.se.WeldContainer;

/**
 * A Weld container whose Bulwark runs on a shared store, as an application would use it: the
 * store's settings are system properties (read through MicroProfile Config when the container
 * boots), and {@link GuardedService}'s methods are called through their client proxy, so every call
 * goes through the real interceptors.
 */
public final class GuardedContainer implements AutoCloseable {

  private final WeldContainer container;
  private final GuardedService service;

  private GuardedContainer(WeldContainer container) {
    this.container = container;
    this.service = container.select(GuardedService.class).get();
  }

  /**
   * Boots the container with {@code settings} as system properties, and proves that Bulwark's
   * interceptor is applied (a bulkhead of 1 rejects a second call) before anything is measured.
   */
  public static GuardedContainer boot(Map<String, String> settings) {
    settings.forEach(System::setProperty);
    // SmallRye FT is on the class path (the interceptor benchmark's peer): its metrics stay off
    System.setProperty("smallrye.faulttolerance.metrics.enabled", "false");
    GuardedContainer guarded =
        new GuardedContainer(
            BenchmarkContainer.boot(
                GuardedService.class, InterceptionProbe.class, MeterRegistryProducer.class));
    try {
      InterceptionCheck.run(guarded.container.select(InterceptionProbe.class).get());
    } catch (RuntimeException e) {
      guarded.close();
      throw e;
    }
    return guarded;
  }

  public GuardedService service() {
    return service;
  }

  @Override
  public void close() {
    container.shutdown();
  }
}
