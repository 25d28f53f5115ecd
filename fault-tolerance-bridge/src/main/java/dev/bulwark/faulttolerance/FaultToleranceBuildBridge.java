package dev.bulwark.faulttolerance;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.cdi.MappedLimits;
import jakarta.decorator.Decorator;
import jakarta.enterprise.inject.build.compatible.spi.BuildCompatibleExtension;
import jakarta.enterprise.inject.build.compatible.spi.ClassConfig;
import jakarta.enterprise.inject.build.compatible.spi.Enhancement;
import jakarta.enterprise.inject.build.compatible.spi.SkipIfPortableExtensionPresent;
import jakarta.enterprise.inject.build.compatible.spi.Synthesis;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticComponents;
import jakarta.enterprise.lang.model.AnnotationTarget;
import jakarta.enterprise.lang.model.declarations.ClassInfo;
import jakarta.enterprise.lang.model.declarations.MethodInfo;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InterceptorBinding;
import java.lang.reflect.Modifier;
import java.util.LinkedHashSet;
import java.util.Set;
import org.eclipse.microprofile.faulttolerance.Bulkhead;

/**
 * The bridge on Quarkus (skipped where the portable {@link FaultToleranceBridge} runs). Config
 * cannot be read at build time, so it adds Bulwark's binding to every {@code @Bulkhead} and
 * {@code @RateLimit} method that has no Bulwark binding of that kind, and hands the classes to
 * {@link StartupMapping}, which decides from config when the application starts which of them are
 * cluster-wide; Bulwark runs the others unguarded (see {@link MappedLimits}).
 */
@SkipIfPortableExtensionPresent(FaultToleranceBridge.class)
public class FaultToleranceBuildBridge implements BuildCompatibleExtension {

  private final Set<String> candidates = new LinkedHashSet<>();

  /** As the portable bridge: every mapped annotation is an interceptor binding. */
  @Enhancement(
      types = Object.class,
      withSubtypes = true,
      withAnnotations = InterceptorBinding.class)
  public void bind(ClassConfig type) {
    ClassInfo info = type.info();
    if (info.isInterface()
        || info.isAnnotation()
        || info.hasAnnotation(Interceptor.class)
        || info.hasAnnotation(Decorator.class)) {
      return;
    }
    type.methods().stream()
        .filter(method -> intercepted(method.info()))
        .forEach(
            method -> {
              if (carries(
                  info, method.info(), Bulkhead.class.getName(), DistributedBulkhead.class)) {
                method.addAnnotation(BindingLiterals.BULKHEAD);
                candidates.add(info.name());
              }
              if (carries(
                  info,
                  method.info(),
                  FaultToleranceBridge.SMALLRYE_RATE_LIMIT,
                  DistributedRateLimit.class)) {
                method.addAnnotation(BindingLiterals.RATE_LIMIT);
                candidates.add(info.name());
              }
            });
  }

  @Synthesis
  public void register(SyntheticComponents components) {
    if (!candidates.isEmpty()) {
      components
          .addBean(MappedLimits.class)
          .type(MappedLimits.class)
          .scope(Singleton.class)
          .withParam(StartupMappingCreator.CLASSES, candidates.toArray(String[]::new))
          .createWith(StartupMappingCreator.class);
    }
  }

  private static boolean intercepted(MethodInfo method) {
    int modifiers = method.modifiers();
    return !Modifier.isPrivate(modifiers) && !Modifier.isStatic(modifiers);
  }

  /**
   * The FT annotation on the method or its class, and no Bulwark binding of that kind: the same
   * decision as {@link StartupMapping}'s, which reads the classes by reflection.
   */
  private static boolean carries(
      ClassInfo type, MethodInfo method, String annotation, Class<?> bulwarkBinding) {
    return (named(method, annotation) || named(type, annotation))
        && !named(method, bulwarkBinding.getName())
        && !named(type, bulwarkBinding.getName());
  }

  private static boolean named(AnnotationTarget target, String annotation) {
    return target.hasAnnotation(found -> found.name().equals(annotation));
  }
}
