package dev.bulwark.cdi;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import jakarta.decorator.Decorator;
import jakarta.enterprise.inject.build.compatible.spi.BuildCompatibleExtension;
import jakarta.enterprise.inject.build.compatible.spi.ClassConfig;
import jakarta.enterprise.inject.build.compatible.spi.Enhancement;
import jakarta.enterprise.inject.build.compatible.spi.SkipIfPortableExtensionPresent;
import jakarta.enterprise.inject.build.compatible.spi.Synthesis;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticComponents;
import jakarta.interceptor.Interceptor;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The build-compatible extension (Quarkus; skipped where the portable one runs). It only collects
 * the names of guarded bean classes at build time and hands them to the runtime as a synthetic
 * bean: config values are resolved and checked when the application starts, never at build time.
 */
@SkipIfPortableExtensionPresent(BulwarkExtension.class)
public class BulwarkBuildExtension implements BuildCompatibleExtension {

  private final Set<String> guarded = new LinkedHashSet<>();

  @Enhancement(
      types = Object.class,
      withSubtypes = true,
      withAnnotations = {
        DistributedBulkhead.class,
        DistributedRateLimit.class,
        DistributedLock.class
      })
  public void collect(ClassConfig type) {
    // interceptors carry the bindings they implement; they are not guarded beans
    if (!type.info().hasAnnotation(Interceptor.class)
        && !type.info().hasAnnotation(Decorator.class)) {
      guarded.add(type.info().name());
    }
  }

  @Synthesis
  public void register(SyntheticComponents components) {
    components
        .addBean(DeclaredLimits.class)
        .type(DeclaredLimits.class)
        .scope(jakarta.inject.Singleton.class)
        .withParam(DeclaredLimitsCreator.CLASSES, guarded.toArray(String[]::new))
        .createWith(DeclaredLimitsCreator.class);
  }
}
