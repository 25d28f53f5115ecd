package dev.bulwark.faulttolerance;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.cdi.BulwarkExtension;
import dev.bulwark.cdi.MappedLimits;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.InvalidDefinitionException;
import dev.bulwark.core.log.BulwarkLog;
import dev.bulwark.core.log.LogMessage;
import jakarta.decorator.Decorator;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.AnnotatedMethod;
import jakarta.enterprise.inject.spi.AnnotatedType;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.DefinitionException;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import jakarta.enterprise.inject.spi.WithAnnotations;
import jakarta.enterprise.inject.spi.configurator.AnnotatedTypeConfigurator;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.faulttolerance.Bulkhead;

/**
 * The portable extension (Weld, Payara) that makes chosen MicroProfile FT {@code @Bulkhead} (and
 * SmallRye FT {@code @RateLimit}) methods cluster-wide. For each such method it declares the
 * Bulwark limit (see {@link BulkheadMapping}, {@link RateLimitMapping}) and adds the Bulwark
 * binding, so Bulwark's interceptor runs inside the FT implementation's, beside its per-JVM
 * bulkhead. The declarations join Bulwark's own, so they are resolved, checked and listed in the
 * startup table with them; a method that also carries Bulwark's own binding of that kind keeps only
 * that one.
 *
 * <p>Why inside the FT interceptor (Bulwark's bulkhead runs at {@code PLATFORM_AFTER + 101}, FT's
 * at {@code + 10} in SmallRye, {@code + 15} on Payara): FT's {@code @Retry}, {@code @Fallback} and
 * {@code @CircuitBreaker} of the method then see a cluster rejection as they see their own
 * bulkhead's ({@code BulkheadFullException} is a {@code BulkheadException}), and FT's per-JVM
 * bulkhead rejects first, without a store round trip, so only calls that run in this JVM hold a
 * cluster permit.
 */
public class FaultToleranceBridge implements Extension {

  private static final BulwarkLog LOG = BulwarkLog.named("dev.bulwark");
  static final String SMALLRYE_RATE_LIMIT = "io.smallrye.faulttolerance.api.RateLimit";

  private final Class<? extends Annotation> rateLimitType = smallRyeRateLimit();
  private final List<String> problems = new ArrayList<>();
  private final MappedGuardings guardings = new MappedGuardings();

  /**
   * Every annotation it maps is an interceptor binding (MicroProfile FT's and SmallRye's alike), so
   * types without one are not looked at; the filter names no FT type, which may be absent.
   */
  void map(
      @Observes @WithAnnotations(InterceptorBinding.class) ProcessAnnotatedType<?> event,
      BeanManager beans) {
    AnnotatedType<?> type = event.getAnnotatedType();
    Class<?> beanClass = type.getJavaClass();
    if (beanClass.isInterface()
        || beanClass.isAnnotation()
        || type.isAnnotationPresent(Interceptor.class)
        || type.isAnnotationPresent(Decorator.class)) {
      return;
    }
    ConfigLookup config = key -> ConfigProvider.getConfig().getOptionalValue(key, String.class);
    List<Mapped> mappedHere = new ArrayList<>();
    AnnotatedTypeConfigurator<?> configurator = null;
    for (AnnotatedMethod<?> method : type.getMethods()) {
      Method javaMethod = method.getJavaMember();
      int modifiers = javaMethod.getModifiers();
      if (Modifier.isPrivate(modifiers) || Modifier.isStatic(modifiers) || javaMethod.isBridge()) {
        continue;
      }
      List<Annotation> bindings = new ArrayList<>();
      try {
        Bulkhead bulkhead = annotation(type, method, Bulkhead.class);
        if (bulkhead != null && !bound(type, method, DistributedBulkhead.class)) {
          BulkheadMapping.declaration(
                  config,
                  beanClass,
                  javaMethod,
                  method.isAnnotationPresent(Bulkhead.class),
                  bulkhead)
              .ifPresent(
                  mapped -> {
                    mappedHere.add(mapped);
                    bindings.add(BindingLiterals.BULKHEAD);
                  });
        }
        if (rateLimitType != null) {
          mapRateLimit(config, type, method)
              .ifPresent(
                  mapped -> {
                    mappedHere.add(mapped);
                    bindings.add(BindingLiterals.RATE_LIMIT);
                  });
        }
      } catch (InvalidDefinitionException e) {
        problems.add(e.getMessage());
      }
      if (!bindings.isEmpty()) {
        if (configurator == null) {
          configurator = event.configureAnnotatedType();
        }
        configurator
            .filterMethods(m -> m.getJavaMember().equals(javaMethod))
            .forEach(m -> bindings.forEach(m::add));
      }
    }
    if (!mappedHere.isEmpty()) {
      mappedHere.forEach(
          mapped -> {
            guardings.add(mapped);
            LOG.info(LogMessage.FT_MAPPED, mapped.describe());
            mapped.ignored().forEach(ignored -> LOG.warn(LogMessage.FT_KEY_IGNORED, ignored));
          });
      beans
          .getExtension(BulwarkExtension.class)
          .declareMapped(mappedHere.stream().map(Mapped::declaration).toList());
    }
  }

  void report(@Observes AfterBeanDiscovery discovery) {
    problems.forEach(problem -> discovery.addDefinitionError(new DefinitionException(problem)));
    discovery
        .addBean()
        .types(MappedLimits.class, Object.class)
        .beanClass(MappedGuardings.class)
        .scope(Singleton.class)
        .createWith(context -> guardings);
  }

  private Optional<Mapped> mapRateLimit(
      ConfigLookup config, AnnotatedType<?> type, AnnotatedMethod<?> method) {
    Annotation rateLimit = annotation(type, method, rateLimitType);
    if (rateLimit == null || bound(type, method, DistributedRateLimit.class)) {
      return Optional.empty();
    }
    return RateLimitMapping.declaration(
        config,
        type.getJavaClass(),
        method.getJavaMember(),
        method.isAnnotationPresent(rateLimitType),
        rateLimit);
  }

  /** The annotation on the method, else on the class (MicroProfile FT's class-level form). */
  private static <A extends Annotation> A annotation(
      AnnotatedType<?> type, AnnotatedMethod<?> method, Class<A> annotationType) {
    A annotation = method.getAnnotation(annotationType);
    return annotation != null ? annotation : type.getAnnotation(annotationType);
  }

  private static boolean bound(
      AnnotatedType<?> type, AnnotatedMethod<?> method, Class<? extends Annotation> binding) {
    return method.isAnnotationPresent(binding) || type.isAnnotationPresent(binding);
  }

  static Class<? extends Annotation> smallRyeRateLimit() {
    try {
      return Class.forName(SMALLRYE_RATE_LIMIT, false, FaultToleranceBridge.class.getClassLoader())
          .asSubclass(Annotation.class);
    } catch (ClassNotFoundException | LinkageError e) {
      return null; // SmallRye FT is not on the class path: nothing to map
    }
  }
}
