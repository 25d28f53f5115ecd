package dev.bulwark.quarkus.deployment;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.LockKey;
import jakarta.decorator.Decorator;
import jakarta.interceptor.Interceptor;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;

/**
 * Finds the guarded classes in the Jandex index: every class that declares a Bulwark binding (on
 * itself or a method) or a {@code @LockKey}, and their subclasses, which inherit both. Interfaces,
 * annotations, interceptors and decorators carry bindings without being guarded.
 */
final class GuardedClassScan {

  static final List<DotName> ANNOTATIONS =
      List.of(
          DotName.createSimple(DistributedBulkhead.class),
          DotName.createSimple(DistributedRateLimit.class),
          DotName.createSimple(DistributedLock.class),
          DotName.createSimple(LockKey.class));

  private static final DotName INTERCEPTOR = DotName.createSimple(Interceptor.class);
  private static final DotName DECORATOR = DotName.createSimple(Decorator.class);

  private GuardedClassScan() {}

  static List<String> scan(IndexView index) {
    Set<ClassInfo> declaring = new LinkedHashSet<>();
    for (DotName annotation : ANNOTATIONS) {
      for (AnnotationInstance instance : index.getAnnotations(annotation)) {
        ClassInfo owner = owner(instance.target());
        if (owner != null) {
          declaring.add(owner);
        }
      }
    }
    Set<String> names = new LinkedHashSet<>();
    for (ClassInfo type : declaring) {
      add(type, names);
      index.getAllKnownSubclasses(type.name()).forEach(subclass -> add(subclass, names));
    }
    return new ArrayList<>(names);
  }

  private static ClassInfo owner(AnnotationTarget target) {
    return switch (target.kind()) {
      case CLASS -> target.asClass();
      case METHOD -> target.asMethod().declaringClass();
      case METHOD_PARAMETER -> target.asMethodParameter().method().declaringClass();
      default -> null;
    };
  }

  private static void add(ClassInfo type, Set<String> names) {
    if (!type.isInterface()
        && !type.isAnnotation()
        && !type.hasDeclaredAnnotation(INTERCEPTOR)
        && !type.hasDeclaredAnnotation(DECORATOR)) {
      names.add(type.name().toString());
    }
  }
}
