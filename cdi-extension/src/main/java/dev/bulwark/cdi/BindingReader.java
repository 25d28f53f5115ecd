package dev.bulwark.cdi;

import jakarta.interceptor.InvocationContext;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Collection;

/**
 * Finds the binding annotation that made the container call an interceptor. The container's own
 * record comes first (Weld and ArC keep it in the context data; {@code getInterceptorBindings()}
 * needs Interceptors 2.2, which Payara 6 lacks), so bindings added by extensions count too; then
 * the method, then the bean class, where {@code @Inherited} makes a superclass's binding visible.
 */
final class BindingReader {

  private static final String[] CONTEXT_DATA_KEYS = {
    "io.quarkus.arc.interceptorBindings", "org.jboss.weld.interceptor.bindings"
  };

  private BindingReader() {}

  static <A extends Annotation> A find(InvocationContext context, Class<A> type) {
    for (String key : CONTEXT_DATA_KEYS) {
      if (context.getContextData().get(key) instanceof Collection<?> bindings) {
        for (Object binding : bindings) {
          if (type.isInstance(binding)) {
            return type.cast(binding);
          }
        }
      }
    }
    Object target = context.getTarget();
    return find(target == null ? null : target.getClass(), context.getMethod(), type);
  }

  /** The binding of {@code method} of {@code beanClass}: on the method, else on the class. */
  static <A extends Annotation> A find(Class<?> beanClass, Method method, Class<A> type) {
    A onMethod = method.getAnnotation(type);
    if (onMethod != null) {
      return onMethod;
    }
    A onDeclaringClass = method.getDeclaringClass().getAnnotation(type);
    if (onDeclaringClass != null || beanClass == null) {
      return onDeclaringClass;
    }
    return beanClass.getAnnotation(type);
  }
}
