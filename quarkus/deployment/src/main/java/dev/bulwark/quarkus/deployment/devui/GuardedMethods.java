package dev.bulwark.quarkus.deployment.devui;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.AnnotationValue;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;

/** Bulwark's bindings in the application's index, as written (config is applied at runtime). */
final class GuardedMethods {

  private static final Map<DotName, String> KINDS =
      Map.of(
          DotName.createSimple(DistributedBulkhead.class), "bulkhead",
          DotName.createSimple(DistributedRateLimit.class), "rate-limit",
          DotName.createSimple(DistributedLock.class), "lock");

  private GuardedMethods() {}

  static List<GuardedMethod> in(IndexView index) {
    List<GuardedMethod> found = new ArrayList<>();
    KINDS.forEach(
        (annotation, kind) -> {
          for (AnnotationInstance instance : index.getAnnotations(annotation)) {
            AnnotationValue name = instance.value("name");
            found.add(
                new GuardedMethod(
                    kind, name == null ? "" : name.asString(), on(instance.target())));
          }
        });
    found.sort(Comparator.comparing(GuardedMethod::on).thenComparing(GuardedMethod::kind));
    return found;
  }

  private static String on(AnnotationTarget target) {
    return switch (target.kind()) {
      case METHOD -> target.asMethod().declaringClass().name() + "#" + target.asMethod().name();
      case CLASS -> target.asClass().name().toString();
      default -> target.toString();
    };
  }
}
