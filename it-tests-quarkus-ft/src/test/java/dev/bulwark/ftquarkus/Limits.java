package dev.bulwark.ftquarkus;

import dev.bulwark.cdi.BulwarkRuntime;
import dev.bulwark.core.config.BulkheadDefinition;
import dev.bulwark.core.config.LimitDefinition;
import dev.bulwark.core.config.RateLimitDefinition;
import io.quarkus.arc.Arc;
import io.smallrye.faulttolerance.FaultToleranceOperationProvider;
import io.smallrye.faulttolerance.config.FaultToleranceOperation;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/**
 * The limits Bulwark enforces in the running application, and what SmallRye FT itself enforces
 * there: a cluster-wide limit is checked against FT's own value, not against one reckoned by hand.
 */
final class Limits {

  private Limits() {}

  /**
   * The name of the limit made for {@code method} of {@code beanClass}: bean class, method and
   * parameter types, as FT keeps one bulkhead per bean class and method.
   */
  static String name(Class<?> beanClass, String method, Class<?>... parameters) {
    return beanClass.getName()
        + "#"
        + method
        + Arrays.stream(parameters)
            .map(Class::getTypeName)
            .collect(Collectors.joining(",", "(", ")"));
  }

  static Map<String, BulkheadDefinition> bulkheads(BulwarkRuntime runtime) {
    return runtime.engine().registry().catalog().definitions().stream()
        .filter(BulkheadDefinition.class::isInstance)
        .map(BulkheadDefinition.class::cast)
        .collect(Collectors.toMap(LimitDefinition::name, d -> d));
  }

  static Map<String, RateLimitDefinition> rateLimits(BulwarkRuntime runtime) {
    return runtime.engine().registry().catalog().definitions().stream()
        .filter(RateLimitDefinition.class::isInstance)
        .map(RateLimitDefinition.class::cast)
        .collect(Collectors.toMap(LimitDefinition::name, d -> d));
  }

  /** The bulkhead value FT enforces in this JVM for the method of the bean class, if any. */
  static OptionalInt ftBulkhead(Class<?> beanClass, String method, Class<?>... parameters) {
    Method found;
    try {
      found = beanClass.getMethod(method, parameters);
    } catch (NoSuchMethodException e) {
      throw new IllegalArgumentException(e);
    }
    FaultToleranceOperation operation =
        Arc.container().instance(FaultToleranceOperationProvider.class).get().get(beanClass, found);
    return operation != null && operation.hasBulkhead()
        ? OptionalInt.of(operation.getBulkhead().value())
        : OptionalInt.empty();
  }
}
