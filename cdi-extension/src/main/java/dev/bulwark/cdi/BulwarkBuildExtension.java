package dev.bulwark.cdi;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.core.config.ConfigLookup;
import jakarta.annotation.Priority;
import jakarta.decorator.Decorator;
import jakarta.enterprise.inject.build.compatible.spi.BuildCompatibleExtension;
import jakarta.enterprise.inject.build.compatible.spi.ClassConfig;
import jakarta.enterprise.inject.build.compatible.spi.Enhancement;
import jakarta.enterprise.inject.build.compatible.spi.SkipIfPortableExtensionPresent;
import jakarta.enterprise.inject.build.compatible.spi.Synthesis;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticComponents;
import jakarta.interceptor.Interceptor;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The build-compatible extension (Quarkus; skipped where the portable one runs). It only collects
 * the names of guarded bean classes at build time and hands them to the runtime as a synthetic
 * bean: config values are resolved and checked when the application starts, never at build time.
 * The one exception is the interceptors' priority, which a container fixes at build time: it
 * follows {@code mp.fault.tolerance.interceptor.priority} as Quarkus' own FT extension reads it
 * then.
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

  @Enhancement(
      types = {RateLimitInterceptor.class, BulkheadInterceptor.class, LockInterceptor.class})
  public void placeInsideFaultTolerance(ClassConfig type) {
    Integer priority = priorities().get(type.info().name());
    if (priority != null) {
      type.removeAnnotation(annotation -> annotation.name().equals(Priority.class.getName()));
      type.addAnnotation(Priorities.literal(priority));
    }
  }

  /** By class name: the build's view of a class is not a loaded class. */
  private static Map<String, Integer> priorities() {
    ConfigLookup config;
    try {
      config = MpConfigLookup.current();
    } catch (IllegalStateException e) {
      return Map.of(); // no config at build time: FT's priority cannot have moved either
    }
    Map<String, Integer> byName = new HashMap<>();
    Priorities.inside(config).forEach((type, priority) -> byName.put(type.getName(), priority));
    return byName;
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
