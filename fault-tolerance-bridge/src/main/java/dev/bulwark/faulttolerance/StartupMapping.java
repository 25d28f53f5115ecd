package dev.bulwark.faulttolerance;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.cdi.MappedLimits;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.InvalidDefinitionException;
import dev.bulwark.core.config.LimitDeclaration;
import dev.bulwark.core.config.LimitKind;
import dev.bulwark.core.config.Origin;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;
import org.eclipse.microprofile.faulttolerance.Bulkhead;

/**
 * The bridge on Quarkus, when the application starts: of the methods {@link
 * FaultToleranceBuildBridge} bound at build time, maps those config makes cluster-wide, with the
 * same decisions as the portable bridge ({@link BulkheadMapping}, {@link RateLimitMapping}). The
 * classes are read by reflection and, as at build time, only their own annotations count: a method
 * is named after the class that declares it.
 */
final class StartupMapping implements MappedLimits {

  private static final Logger LOG = Logger.getLogger("dev.bulwark");

  /** A method the build bound, with the FT annotation that made it a candidate. */
  private record Candidate(Class<?> type, Method method, Annotation annotation) {}

  private final Map<Method, Candidate> bulkheads = new LinkedHashMap<>();
  private final Map<Method, Candidate> rateLimits = new LinkedHashMap<>();

  StartupMapping(Collection<Class<?>> classes) {
    Class<? extends Annotation> rateLimit = FaultToleranceBridge.smallRyeRateLimit();
    for (Class<?> type : classes) {
      for (Method method : type.getDeclaredMethods()) {
        int modifiers = method.getModifiers();
        if (Modifier.isPrivate(modifiers)
            || Modifier.isStatic(modifiers)
            || method.isSynthetic()
            || method.isBridge()) {
          continue;
        }
        candidate(type, method, Bulkhead.class, DistributedBulkhead.class)
            .ifPresent(found -> bulkheads.put(method, found));
        if (rateLimit != null) {
          candidate(type, method, rateLimit, DistributedRateLimit.class)
              .ifPresent(found -> rateLimits.put(method, found));
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
                candidate.type(),
                candidate.method(),
                Origin.of(candidate.type(), candidate.method()),
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
                candidate.type(),
                candidate.method(),
                Origin.of(candidate.type(), candidate.method()),
                candidate.annotation())
            .ifPresent(mapped::add);
      } catch (InvalidDefinitionException e) {
        problems.add(e.getMessage());
      }
    }
    if (!problems.isEmpty()) {
      throw new InvalidDefinitionException(String.join(System.lineSeparator(), problems));
    }
    mapped.forEach(found -> LOG.info(found.describe()));
    return mapped.stream().map(Mapped::declaration).toList();
  }

  @Override
  public boolean bound(Method method, LimitKind kind) {
    return switch (kind) {
      case BULKHEAD -> bulkheads.containsKey(method);
      case RATE_LIMIT -> rateLimits.containsKey(method);
      default -> false;
    };
  }

  private static Optional<Candidate> candidate(
      Class<?> type,
      Method method,
      Class<? extends Annotation> annotation,
      Class<? extends Annotation> bulwarkBinding) {
    Annotation found = method.getDeclaredAnnotation(annotation);
    if (found == null) {
      found = type.getDeclaredAnnotation(annotation);
    }
    if (found == null
        || method.isAnnotationPresent(bulwarkBinding)
        || type.isAnnotationPresent(bulwarkBinding)) {
      return Optional.empty();
    }
    return Optional.of(new Candidate(type, method, found));
  }
}
