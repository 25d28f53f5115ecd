package dev.bulwark.cdi;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.LockKey;
import dev.bulwark.core.config.LimitDefinition;
import dev.bulwark.core.config.LimitKind;
import dev.bulwark.core.registry.LimitCatalog;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;

/**
 * What a guarded method's signature must allow, apart from the members of its bindings: a return
 * type whose work Bulwark can hold its limit over to the end, {@code @LockKey} only where a lock
 * reads it, and one lock name either keyed or whole on every method. Checked with the declarations,
 * so an application that breaks a rule fails to deploy (on Quarkus: to build).
 */
final class GuardedSignatures {

  private static final List<Class<? extends Annotation>> BINDINGS =
      List.of(DistributedRateLimit.class, DistributedBulkhead.class, DistributedLock.class);

  /**
   * Asynchronous types whose end Bulwark cannot see: it would release the limit as soon as the
   * method returns, while the work goes on. By name, so none of their libraries is needed.
   */
  private static final List<String> UNHOLDABLE =
      List.of(
          "io.smallrye.mutiny.Multi",
          "org.reactivestreams.Publisher",
          Flow.Publisher.class.getName(),
          Future.class.getName());

  private GuardedSignatures() {}

  /** One message per broken rule, each naming the method; {@code catalog} holds their limits. */
  static List<String> check(Collection<Class<?>> beanClasses, LimitCatalog catalog) {
    List<String> problems = new ArrayList<>();
    Map<String, Keyed> lockShapes = new LinkedHashMap<>();
    for (Class<?> beanClass : beanClasses) {
      if (!GuardedMethods.isGuardable(beanClass)) {
        continue;
      }
      for (Method method : GuardedMethods.businessMethods(beanClass)) {
        List<String> bindings = bindings(beanClass, method);
        String where = beanClass.getName() + "#" + method.getName();
        if (!bindings.isEmpty() && !holdable(method.getReturnType())) {
          problems.add(
              "Invalid @"
                  + bindings.get(0)
                  + " on "
                  + where
                  + ": return type "
                  + method.getReturnType().getName()
                  + " cannot be held to completion (Bulwark would release the limit when the"
                  + " method returns, while its work goes on); return a plain value,"
                  + " CompletionStage, CompletableFuture or Uni");
        }
        boolean keyed = keyed(method);
        if (keyed && !bindings.contains(LimitKind.LOCK.annotationName())) {
          problems.add(
              "Invalid @LockKey on "
                  + where
                  + ": the method has no @DistributedLock, so the key locks nothing; add"
                  + " @DistributedLock to the method or remove @LockKey");
        }
        LimitDefinition lock = catalog.forMethod(beanClass, method, LimitKind.LOCK);
        if (lock != null && lock.enabled()) {
          Keyed first = lockShapes.putIfAbsent(lock.name(), new Keyed(where, keyed));
          if (first != null && first.keyed() != keyed) {
            problems.add(
                "Invalid @DistributedLock '"
                    + lock.name()
                    + "': "
                    + (first.keyed() ? first.where() : where)
                    + " locks one key of it with @LockKey, "
                    + (first.keyed() ? where : first.where())
                    + " locks the whole name without one, and the two never exclude each"
                    + " other; give both methods a @LockKey or use different names");
          }
        }
      }
    }
    return problems;
  }

  /** A lock's first method and whether it passes a key. */
  private record Keyed(String where, boolean keyed) {}

  /** The names of the Bulwark bindings that guard the method. */
  private static List<String> bindings(Class<?> beanClass, Method method) {
    List<String> names = new ArrayList<>();
    for (Class<? extends Annotation> type : BINDINGS) {
      if (BindingReader.find(beanClass, method, type) != null) {
        names.add(type.getSimpleName());
      }
    }
    return names;
  }

  private static boolean keyed(Method method) {
    for (Parameter parameter : method.getParameters()) {
      if (parameter.isAnnotationPresent(LockKey.class)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A synchronous type, or one of the asynchronous types {@link AsyncReturn} holds to the end
   * (exactly: a subtype would be taken for a plain value).
   */
  static boolean holdable(Class<?> type) {
    if (AsyncReturn.isAsync(type)) {
      return true;
    }
    return !anyNamed(type, UNHOLDABLE)
        && !anyNamed(type, List.of("java.util.concurrent.CompletionStage", AsyncReturn.UNI));
  }

  /** Whether {@code type} is, extends or implements a type of one of {@code names}. */
  private static boolean anyNamed(Class<?> type, List<String> names) {
    if (type == null) {
      return false;
    }
    if (names.contains(type.getName())) {
      return true;
    }
    for (Class<?> implemented : type.getInterfaces()) {
      if (anyNamed(implemented, names)) {
        return true;
      }
    }
    return anyNamed(type.getSuperclass(), names);
  }
}
