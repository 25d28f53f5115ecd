package dev.bulwark.quarkus.deployment.config;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/** The messages of a failed start, causes and suppressed exceptions included. */
final class StartFailure {

  private StartFailure() {}

  static String messages(Throwable failure) {
    StringBuilder messages = new StringBuilder();
    collect(failure, messages, Collections.newSetFromMap(new IdentityHashMap<>()));
    return messages.toString();
  }

  private static void collect(Throwable failure, StringBuilder messages, Set<Throwable> seen) {
    if (failure == null || !seen.add(failure)) {
      return;
    }
    messages.append(failure.getMessage()).append('\n');
    collect(failure.getCause(), messages, seen);
    for (Throwable suppressed : failure.getSuppressed()) {
      collect(suppressed, messages, seen);
    }
  }
}
