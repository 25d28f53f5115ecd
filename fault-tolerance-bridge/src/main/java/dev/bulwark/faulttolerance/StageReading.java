package dev.bulwark.faulttolerance;

import dev.bulwark.core.config.ConfigLookup;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Whether the FT implementation reads a method's returned stage as a plain result. SmallRye FT in
 * its MicroProfile-compatible mode (its default, but not Quarkus') treats a method that returns a
 * {@code CompletionStage} without {@code @Asynchronous}, {@code @AsynchronousNonBlocking},
 * {@code @Blocking} or {@code @NonBlocking} as synchronous: its own bulkhead rejects by throwing,
 * and its {@code @Fallback} never looks at a stage that failed. A cluster rejection of such a
 * method must then be thrown too.
 */
final class StageReading {

  static final String COMPATIBILITY = "smallrye.faulttolerance.mp-compatibility";

  private static final List<String> ASYNCHRONOUS =
      List.of(
          "org.eclipse.microprofile.faulttolerance.Asynchronous",
          "io.smallrye.faulttolerance.api.AsynchronousNonBlocking",
          "io.smallrye.common.annotation.Blocking",
          "io.smallrye.common.annotation.NonBlocking");

  private StageReading() {}

  static boolean asResult(ConfigLookup config, Class<?> beanClass, Method method) {
    Class<?> returned = method.getReturnType();
    if (returned != CompletionStage.class && returned != CompletableFuture.class) {
      return false;
    }
    boolean compatible =
        config.get(COMPATIBILITY).map(FtStyleKeys::configBoolean).orElse(!onQuarkus());
    return compatible && !marked(method.getAnnotations()) && !marked(beanClass.getAnnotations());
  }

  private static boolean marked(Annotation[] annotations) {
    return Arrays.stream(annotations)
        .anyMatch(found -> ASYNCHRONOUS.contains(found.annotationType().getName()));
  }

  /** Quarkus turns the compatible mode off unless told otherwise. */
  private static boolean onQuarkus() {
    try {
      Class.forName("io.quarkus.runtime.LaunchMode", false, StageReading.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }
}
