package dev.bulwark.cdi;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import jakarta.annotation.Priority;
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
 * The one exception is the interceptors' priority, which a container fixes at build time: it
 * follows {@code mp.fault.tolerance.interceptor.priority} as Quarkus' own FT extension reads it
 * then.
 *
 * <p>Where a container has an extension of its own for Bulwark (Quarkus' {@code bulwark-quarkus}),
 * that one does this work and marks its build with the resource {@value #TAKEN_OVER}: this
 * extension then does nothing, so the two never both declare the limits.
 */
@SkipIfPortableExtensionPresent(BulwarkExtension.class)
public class BulwarkBuildExtension implements BuildCompatibleExtension {

  /** Present on the build's class path when a container's own Bulwark extension does the work. */
  public static final String TAKEN_OVER = "META-INF/bulwark/build-compatible-extension-taken-over";

  private final Set<String> guarded = new LinkedHashSet<>();
  private final boolean takenOver = takenOver();

  @Enhancement(
      types = Object.class,
      withSubtypes = true,
      withAnnotations = {
        DistributedBulkhead.class,
        DistributedRateLimit.class,
        DistributedLock.class
      })
  public void collect(ClassConfig type) {
    if (takenOver) {
      return;
    }
    // interceptors carry the bindings they implement; they are not guarded beans
    if (!type.info().hasAnnotation(Interceptor.class)
        && !type.info().hasAnnotation(Decorator.class)) {
      guarded.add(type.info().name());
    }
  }

  @Enhancement(
      types = {RateLimitInterceptor.class, BulkheadInterceptor.class, LockInterceptor.class})
  public void placeInsideFaultTolerance(ClassConfig type) {
    if (takenOver) {
      return;
    }
    Integer priority = InterceptorPlacement.byClassName().get(type.info().name());
    if (priority != null) {
      type.removeAnnotation(annotation -> annotation.name().equals(Priority.class.getName()));
      type.addAnnotation(Priorities.literal(priority));
    }
  }

  @Synthesis
  public void register(SyntheticComponents components) {
    if (takenOver) {
      return;
    }
    components
        .addBean(DeclaredLimits.class)
        .type(DeclaredLimits.class)
        .scope(jakarta.inject.Singleton.class)
        .withParam(DeclaredLimitsCreator.CLASSES, guarded.toArray(String[]::new))
        .createWith(DeclaredLimitsCreator.class);
  }

  private static boolean takenOver() {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    if (loader == null) {
      loader = BulwarkBuildExtension.class.getClassLoader();
    }
    return loader.getResource(TAKEN_OVER) != null;
  }
}
