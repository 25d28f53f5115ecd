package dev.bulwark.cdi;

import dev.bulwark.core.config.Origin;
import jakarta.interceptor.InvocationContext;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Collection;

/**
 * Finds the binding annotation that made the container call an interceptor, and where it is
 * declared. The container's own record comes first (Weld and ArC keep it in the context data;
 * {@code getInterceptorBindings()} needs Interceptors 2.2, which Payara 6 lacks), so bindings added
 * by extensions count too; then the method, then the bean class, where {@code @Inherited} makes a
 * superclass's binding visible.
 */
final class BindingReader {

  private static final String[] CONTEXT_DATA_KEYS = {
    "io.quarkus.arc.interceptorBindings", "org.jboss.weld.interceptor.bindings"
  };

  /** A binding and the origin its default name and FT-style keys derive from. */
  record Binding<A extends Annotation>(A annotation, Origin origin) {}

  private BindingReader() {}

  static <A extends Annotation> Binding<A> find(InvocationContext context, Class<A> type) {
    Object target = context.getTarget();
    Class<?> beanClass = target == null ? null : target.getClass();
    Method method = context.getMethod();
    for (String key : CONTEXT_DATA_KEYS) {
      if (context.getContextData().get(key) instanceof Collection<?> bindings) {
        for (Object binding : bindings) {
          if (type.isInstance(binding)) {
            return new Binding<>(type.cast(binding), origin(beanClass, method, type));
          }
        }
      }
    }
    return find(beanClass, method, type);
  }

  /**
   * The binding of {@code method} of {@code beanClass}: on the method, else on the bean class or
   * the nearest superclass that declares one; null when there is none.
   */
  static <A extends Annotation> Binding<A> find(Class<?> beanClass, Method method, Class<A> type) {
    A annotation = method.getAnnotation(type);
    if (annotation == null && beanClass != null) {
      annotation = beanClass.getAnnotation(type);
    }
    if (annotation == null) {
      annotation = method.getDeclaringClass().getAnnotation(type);
    }
    return annotation == null ? null : new Binding<>(annotation, origin(beanClass, method, type));
  }

  /**
   * A method-level binding belongs to the method's class; a class-level one to the class that
   * declares it, so two subclasses that annotate an inherited method differently get two limits.
   * Generated subclasses (Weld's and ArC's proxies) declare no annotations and are passed over.
   */
  private static Origin origin(
      Class<?> beanClass, Method method, Class<? extends Annotation> type) {
    if (!method.isAnnotationPresent(type)) {
      for (Class<?> c = beanClass; c != null && c != Object.class; c = c.getSuperclass()) {
        if (c.getDeclaredAnnotation(type) != null) {
          return Origin.of(c, method);
        }
      }
    }
    return Origin.of(method.getDeclaringClass(), method);
  }
}
