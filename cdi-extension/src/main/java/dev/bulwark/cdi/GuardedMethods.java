package dev.bulwark.cdi;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.core.config.LimitDeclaration;
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

/**
 * Finds every guarded method of the given bean classes and turns each binding into a {@link
 * LimitDeclaration}, so the definitions are resolved (and checked) while the application deploys.
 */
final class GuardedMethods {

  private static final List<Class<? extends Annotation>> BINDINGS =
      List.of(DistributedRateLimit.class, DistributedBulkhead.class, DistributedLock.class);

  private GuardedMethods() {}

  static List<LimitDeclaration> declarations(Collection<Class<?>> beanClasses) {
    List<LimitDeclaration> declarations = new ArrayList<>();
    for (Class<?> beanClass : beanClasses) {
      if (!isGuardable(beanClass)) {
        continue;
      }
      for (Method method : businessMethods(beanClass)) {
        for (Class<? extends Annotation> type : BINDINGS) {
          BindingReader.Binding<? extends Annotation> binding =
              BindingReader.find(beanClass, method, type);
          if (binding != null) {
            declarations.add(
                LimitDeclaration.ofAnnotation(
                    beanClass, method, binding.origin(), binding.annotation()));
          }
        }
      }
    }
    return declarations;
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
