package dev.bulwark.cdi;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.core.config.DefinitionResolver;
import dev.bulwark.core.config.InvalidDefinitionException;
import dev.bulwark.core.config.LimitDefinition;
import dev.bulwark.core.config.Origin;
import jakarta.decorator.Decorator;
import jakarta.interceptor.Interceptor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Resolves the definition of every guarded method of the given bean classes, the same way the
 * interceptors will on the first call, so invalid values fail the deployment instead.
 */
final class GuardedMethods {

  /** The definitions found and the problems, one message each. */
  record Scan(List<LimitDefinition> definitions, List<String> problems) {}

  private GuardedMethods() {}

  static Scan scan(Collection<Class<?>> beanClasses, DefinitionResolver resolver) {
    List<LimitDefinition> definitions = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    for (Class<?> beanClass : beanClasses) {
      if (!isGuardable(beanClass)) {
        continue;
      }
      for (Method method : businessMethods(beanClass)) {
        Origin origin = Origin.of(method.getDeclaringClass(), method);
        try {
          DistributedBulkhead bulkhead =
              BindingReader.find(beanClass, method, DistributedBulkhead.class);
          if (bulkhead != null) {
            definitions.add(resolver.bulkhead(origin, bulkhead));
          }
        } catch (InvalidDefinitionException e) {
          problems.add(e.getMessage());
        }
        try {
          DistributedRateLimit rateLimit =
              BindingReader.find(beanClass, method, DistributedRateLimit.class);
          if (rateLimit != null) {
            definitions.add(resolver.rateLimit(origin, rateLimit));
          }
        } catch (InvalidDefinitionException e) {
          problems.add(e.getMessage());
        }
        try {
          DistributedLock lock = BindingReader.find(beanClass, method, DistributedLock.class);
          if (lock != null) {
            definitions.add(resolver.lock(origin, lock));
          }
        } catch (InvalidDefinitionException e) {
          problems.add(e.getMessage());
        }
      }
    }
    return new Scan(definitions, problems);
  }

  /** Interceptors and decorators carry bindings without being guarded beans. */
  static boolean isGuardable(Class<?> type) {
    return !type.isAnnotationPresent(Interceptor.class)
        && !type.isAnnotationPresent(Decorator.class)
        && !type.isInterface()
        && !type.isAnnotation();
  }

  /** Methods a container intercepts: not private, not static, not synthetic, not Object's. */
  static Collection<Method> businessMethods(Class<?> beanClass) {
    Map<String, Method> methods = new LinkedHashMap<>();
    for (Class<?> c = beanClass; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Method method : c.getDeclaredMethods()) {
        int modifiers = method.getModifiers();
        if (Modifier.isPrivate(modifiers)
            || Modifier.isStatic(modifiers)
            || method.isSynthetic()
            || method.isBridge()) {
          continue;
        }
        String signature = method.getName() + Arrays.toString(method.getParameterTypes());
        methods.putIfAbsent(signature, method);
      }
    }
    return methods.values();
  }
}
