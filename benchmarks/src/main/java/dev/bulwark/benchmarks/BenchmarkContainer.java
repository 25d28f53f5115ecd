package dev.bulwark.benchmarks;

import dev.bulwark.cdi.BulkheadInterceptor;
import jakarta.enterprise.inject.spi.Extension;
import java.util.ServiceLoader;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;

/**
 * Boots Weld SE the way the benchmark needs it, from one shaded jar.
 *
 * <p>Discovery is off: a shaded jar is a single archive, so the per-jar {@code beans.xml} and
 * Jandex indexes of the libraries no longer describe it. The bean classes are named instead:
 * Bulwark's interceptors and runtime beans (the {@code dev.bulwark.cdi} package, filtered by the
 * {@code annotated} discovery mode that synthetic archives use in Weld 5) plus the benchmark's own
 * beans. Turning discovery off also turns off Weld's {@link ServiceLoader} lookup of portable
 * extensions, so every registered extension (SmallRye Config, SmallRye Fault Tolerance, Bulwark) is
 * added here by hand.
 */
public final class BenchmarkContainer {

  private BenchmarkContainer() {}

  public static WeldContainer boot(Class<?>... beanClasses) {
    Weld weld =
        new Weld()
            .disableDiscovery()
            .skipShutdownHook()
            .addPackage(false, BulkheadInterceptor.class)
            .addBeanClasses(beanClasses);
    for (Extension extension : ServiceLoader.load(Extension.class)) {
      weld.addExtension(extension);
    }
    return weld.initialize();
  }
}
