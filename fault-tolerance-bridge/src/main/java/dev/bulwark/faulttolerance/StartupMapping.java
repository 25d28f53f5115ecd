package dev.bulwark.faulttolerance;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.cdi.MappedGuarding;
import dev.bulwark.cdi.MappedLimits;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.InvalidDefinitionException;
import dev.bulwark.core.config.LimitDeclaration;
import dev.bulwark.core.config.LimitDefinition;
import dev.bulwark.core.config.LimitKind;
import dev.bulwark.core.log.BulwarkLog;
import dev.bulwark.core.log.LogMessage;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.faulttolerance.Bulkhead;

/**
 * The bridge on Quarkus, when the application starts: of the bean methods {@link
 * FaultToleranceBuildBridge} bound at build time, maps those config makes cluster-wide, with the
 * same decisions as the portable bridge ({@link BulkheadMapping}, {@link RateLimitMapping}). The
 * bean classes are read by reflection as MicroProfile FT reads them: every business method,
 * inherited ones too, guarded by the annotation on the method, else by the one on the class or its
 * nearest superclass; one limit per bean class and method.
 */
final class StartupMapping implements MappedLimits {

  private static final BulwarkLog LOG = BulwarkLog.named("dev.bulwark");

  /** A method of a bean class FT guards, and whether the annotation sits on the method. */
  private record Candidate(Class<?> beanClass, Method method, Annotation annotation) {

    boolean onMethod() {
      return method.isAnnotationPresent(annotation.annotationType());
    }
  }

  /** A bean class and one of its methods. */
  private record Guarded(Class<?> beanClass, Method method) {}

  private final Map<Guarded, Candidate> bulkheads = new LinkedHashMap<>();
  private final Map<Guarded, Candidate> rateLimits = new LinkedHashMap<>();
  private final MappedGuardings guardings = new MappedGuardings();

  StartupMapping(Collection<Class<?>> beanClasses) {
    Class<? extends Annotation> rateLimit = FaultToleranceBridge.smallRyeRateLimit();
    for (Class<?> beanClass : beanClasses) {
      for (Method method : MappedLimits.businessMethods(beanClass)) {
        Guarded guarded = new Guarded(beanClass, method);
        candidate(beanClass, method, Bulkhead.class, DistributedBulkhead.class)
            .ifPresent(found -> bulkheads.put(guarded, found));
        if (rateLimit != null) {
          candidate(beanClass, method, rateLimit, DistributedRateLimit.class)
              .ifPresent(found -> rateLimits.put(guarded, found));
        }
      }
    }
  }

  @Override
  public Collection<LimitDeclaration> declarations(ConfigLookup config) {
    List<Mapped> mapped = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    for (Candidate candidate : bulkheads.values()) {
      try {
        BulkheadMapping.declaration(
                config,
                candidate.beanClass(),
                candidate.method(),
                candidate.onMethod(),
                (Bulkhead) candidate.annotation())
            .ifPresent(mapped::add);
      } catch (InvalidDefinitionException e) {
        problems.add(e.getMessage());
      }
    }
    for (Candidate candidate : rateLimits.values()) {
      try {
        RateLimitMapping.declaration(
                config,
                candidate.beanClass(),
                candidate.method(),
                candidate.onMethod(),
                candidate.annotation())
            .ifPresent(mapped::add);
      } catch (InvalidDefinitionException e) {
        problems.add(e.getMessage());
      }
    }
    if (!problems.isEmpty()) {
      throw new InvalidDefinitionException(String.join(System.lineSeparator(), problems));
    }
    mapped.forEach(
        found -> {
          guardings.add(found);
          LOG.info(LogMessage.FT_MAPPED, found.describe());
          found.ignored().forEach(ignored -> LOG.warn(LogMessage.FT_KEY_IGNORED, ignored));
        });
    return mapped.stream().map(Mapped::declaration).toList();
  }

  @Override
  public MappedGuarding guarding(LimitDefinition definition) {
    return guardings.guarding(definition);
  }

  @Override
  public boolean bound(Class<?> beanClass, Method method, LimitKind kind) {
    Guarded guarded = new Guarded(beanClass, method);
    return switch (kind) {
      case BULKHEAD -> bulkheads.containsKey(guarded);
      case RATE_LIMIT -> rateLimits.containsKey(guarded);
      default -> false;
    };
  }

  /** FT's annotation for the method of the bean class, unless Bulwark's own binding is there. */
  private static Optional<Candidate> candidate(
      Class<?> beanClass,
      Method method,
      Class<? extends Annotation> annotation,
      Class<? extends Annotation> bulwarkBinding) {
    Annotation found = method.getAnnotation(annotation);
    if (found == null) {
      found = beanClass.getAnnotation(annotation); // @Inherited: the nearest class that has one
    }
    if (found == null
        || method.isAnnotationPresent(bulwarkBinding)
        || beanClass.isAnnotationPresent(bulwarkBinding)) {
      return Optional.empty();
    }
    return Optional.of(new Candidate(beanClass, method, found));
  }
}
