package dev.bulwark.faulttolerance;

import dev.bulwark.core.config.LimitDefinition;
import io.smallrye.faulttolerance.FaultToleranceOperationProvider;
import io.smallrye.faulttolerance.config.FaultToleranceOperation;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import org.jboss.weld.environment.se.WeldContainer;

/**
 * What SmallRye Fault Tolerance itself enforces in this JVM, asked of the container's FT: the
 * bridge's cluster-wide limits are checked against it, not against values a test reckoned by hand.
 */
final class FaultToleranceOracle {

  private final WeldContainer container;
  private final Map<String, LimitDefinition> mapped;

  FaultToleranceOracle(WeldContainer container) {
    this.container = container;
    this.mapped = MappedDefinitions.of(container);
  }

  /** FT's bulkhead value for the method of the bean class; empty when FT applies none. */
  OptionalInt bulkhead(Class<?> beanClass, Method method) {
    FaultToleranceOperation operation =
        container.select(FaultToleranceOperationProvider.class).get().get(beanClass, method);
    return operation.hasBulkhead()
        ? OptionalInt.of(operation.getBulkhead().value())
        : OptionalInt.empty();
  }

  /** The limit the bridge made for the method of the bean class, or null. */
  LimitDefinition mapped(Class<?> beanClass, Method method) {
    return mapped.get(name(beanClass, method));
  }

  Map<String, LimitDefinition> all() {
    return mapped;
  }

  /** A mapped limit's name: bean class, method and parameter types. */
  static String name(Class<?> beanClass, Method method) {
    return beanClass.getName()
        + "#"
        + method.getName()
        + Arrays.stream(method.getParameterTypes())
            .map(Class::getTypeName)
            .collect(Collectors.joining(",", "(", ")"));
  }

  static Method method(Class<?> type, String name, Class<?>... parameters) {
    try {
      return type.getMethod(name, parameters);
    } catch (NoSuchMethodException e) {
      throw new IllegalArgumentException(e);
    }
  }
}
