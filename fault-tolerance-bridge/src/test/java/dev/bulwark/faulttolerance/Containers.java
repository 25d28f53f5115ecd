package dev.bulwark.faulttolerance;

import dev.bulwark.cdi.BulkheadInterceptor;
import dev.bulwark.cdi.BulwarkExtension;
import dev.bulwark.cdi.BulwarkRuntime;
import dev.bulwark.cdi.LockInterceptor;
import dev.bulwark.cdi.RateLimitInterceptor;
import dev.bulwark.cdi.StartupCheck;
import io.smallrye.config.inject.ConfigExtension;
import io.smallrye.faulttolerance.FaultToleranceExtension;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;

/**
 * Weld SE containers with SmallRye Config, SmallRye Fault Tolerance, Bulwark and the bridge (their
 * portable extensions, as the application server would find them), and only the given beans.
 * Configuration is set as system properties, which MicroProfile Config reads, until {@link
 * Config#close()}.
 */
final class Containers {

  private static final AtomicInteger IDS = new AtomicInteger();

  private Containers() {}

  /** System properties for the life of a test. */
  static final class Config implements AutoCloseable {
    private final Map<String, String> values = new LinkedHashMap<>();

    Config set(String key, String value) {
      values.put(key, value);
      System.setProperty(key, value);
      return this;
    }

    @Override
    public void close() {
      values.keySet().forEach(System::clearProperty);
    }
  }

  static Config config() {
    return new Config();
  }

  /** A container of its own (several may run at once in one JVM, each with its own engine). */
  static WeldContainer boot(Class<?>... beans) {
    return new Weld("ftb-" + IDS.incrementAndGet())
        .disableDiscovery()
        .addExtension(new ConfigExtension())
        .addExtension(new FaultToleranceExtension())
        .addExtension(new BulwarkExtension())
        .addExtension(new FaultToleranceBridge())
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
