package dev.bulwark.quarkus.deployment.devui;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.AnnotationValue;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;

/** Bulwark's bindings in the application's index, as written (config is applied at runtime). */
final class GuardedMethods {

  private static final Map<DotName, String> KINDS =
      Map.of(
          DotName.createSimple(DistributedBulkhead.class), "bulkhead",
          DotName.createSimple(DistributedRateLimit.class), "rate-limit",
          DotName.createSimple(DistributedLock.class), "lock");

  /**
   * Bulwark's own interceptors carry the bindings too, as interceptor bindings; they guard nothing.
   */
  private static final DotName INTERCEPTOR =
      DotName.createSimple("jakarta.interceptor.Interceptor");

  private GuardedMethods() {}

  /**
   * How many limits the bindings make: one per kind and name, a binding without a name counting as
   * the limit its default name makes ({@code <class>#<method>}; the class for a lock).
   */
  static int limits(List<GuardedMethod> guarded) {
    Set<String> limits = new HashSet<>();
    for (GuardedMethod method : guarded) {
      String name = method.name();
      if (name.isEmpty()) {
        int hash = method.on().indexOf('#');
        name =
            method.kind().equals("lock") && hash > 0 ? method.on().substring(0, hash) : method.on();
      }
      limits.add(method.kind() + " " + name);
    }
    return limits.size();
  }

  static List<GuardedMethod> in(IndexView index) {
    List<GuardedMethod> found = new ArrayList<>();
    KINDS.forEach(
        (annotation, kind) -> {
          for (AnnotationInstance instance : index.getAnnotations(annotation)) {
            if (!guards(instance.target())) {
              continue;
            }
            AnnotationValue name = instance.value("name");
            found.add(
                new GuardedMethod(
                    kind, name == null ? "" : name.asString(), on(instance.target())));
          }
        });
    found.sort(Comparator.comparing(GuardedMethod::on).thenComparing(GuardedMethod::kind));
    return found;
  }

  /** A method or class an application declared, not an interceptor or an annotation type. */
  private static boolean guards(AnnotationTarget target) {
    return switch (target.kind()) {
      case METHOD -> !isInterceptor(target.asMethod().declaringClass());
      case CLASS -> !target.asClass().isAnnotation() && !isInterceptor(target.asClass());
      default -> false;
    };
  }

  private static boolean isInterceptor(ClassInfo type) {
    return type.declaredAnnotation(INTERCEPTOR) != null;
  }

  private static String on(AnnotationTarget target) {
    return switch (target.kind()) {
      case METHOD -> target.asMethod().declaringClass().name() + "#" + target.asMethod().name();
      case CLASS -> target.asClass().name().toString();
      default -> target.toString();
    };
  }
}
