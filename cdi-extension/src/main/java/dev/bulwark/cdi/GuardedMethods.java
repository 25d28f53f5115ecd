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
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

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
        resolve(
            beanClass,
            method,
            DistributedBulkhead.class,
            resolver::bulkhead,
            definitions,
            problems);
        resolve(
            beanClass,
            method,
            DistributedRateLimit.class,
            resolver::rateLimit,
            definitions,
            problems);
        resolve(beanClass, method, DistributedLock.class, resolver::lock, definitions, problems);
      }
    }
    return new Scan(definitions, problems);
  }

  private static <A extends Annotation> void resolve(
      Class<?> beanClass,
      Method method,
      Class<A> type,
      BiFunction<Origin, A, ? extends LimitDefinition> resolve,
      List<LimitDefinition> definitions,
      List<String> problems) {
    BindingReader.Binding<A> binding = BindingReader.find(beanClass, method, type);
    if (binding == null) {
      return;
    }
    try {
      definitions.add(resolve.apply(binding.origin(), binding.annotation()));
    } catch (InvalidDefinitionException e) {
      problems.add(e.getMessage());
    }
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
