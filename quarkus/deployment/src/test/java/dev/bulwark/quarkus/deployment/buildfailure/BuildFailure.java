package dev.bulwark.quarkus.deployment.buildfailure;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.QuarkusUnitTest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/** A Quarkus build of the given classes that must fail with a message holding every fragment. */
final class BuildFailure {

  private BuildFailure() {}

  static QuarkusUnitTest expect(List<Class<?>> classes, String... fragments) {
    return new QuarkusUnitTest()
        .withApplicationRoot(archive -> archive.addClasses(classes.toArray(Class<?>[]::new)))
        .assertException(
            failure -> {
              String messages = String.join("\n", messages(failure));
              assertThat(messages).contains(fragments);
              // raised by the build step, not when the application starts
              assertThat(messages).contains("dev.bulwark.quarkus.deployment.BulwarkProcessor");
              assertThat(messages).doesNotContain("dev.bulwark.quarkus.DeclaredLimitsFromBuild");
            });
  }

  /** Every message in the chain of causes and suppressed exceptions. */
  private static List<String> messages(Throwable failure) {
    List<String> messages = new ArrayList<>();
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    collect(failure, messages, seen);
    return messages;
  }

  private static void collect(Throwable failure, List<String> messages, Set<Throwable> seen) {
    if (failure == null || !seen.add(failure)) {
      return;
    }
    messages.add(String.valueOf(failure.getMessage()));
    for (StackTraceElement element : failure.getStackTrace()) {
      messages.add(element.getClassName());
    }
    collect(failure.getCause(), messages, seen);
    for (Throwable suppressed : failure.getSuppressed()) {
      collect(suppressed, messages, seen);
    }
  }
}
