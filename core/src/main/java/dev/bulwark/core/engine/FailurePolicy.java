package dev.bulwark.core.engine;

import java.util.Locale;

/** What a call gets when the store cannot be reached ({@code bulwark.failure-policy}). */
public enum FailurePolicy {
  /** Throw {@code StoreUnavailableException}. */
  FAIL_CLOSED,
  /** Let the call through unguarded, and count it. */
  FAIL_OPEN,
  /** Enforce the limit per JVM with the local store until the shared store answers again. */
  LOCAL;

  public static FailurePolicy parse(String value) {
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "fail-closed" -> FAIL_CLOSED;
      case "fail-open" -> FAIL_OPEN;
      case "local" -> LOCAL;
      default ->
          throw new IllegalArgumentException(
              "'" + value + "' is not a failure policy (fail-closed, fail-open or local)");
    };
  }
}
