package dev.bulwark.redis.modelcheck;

/** A broken invariant, with the sequence of actions that led to it once the explorer adds it. */
final class Violation extends AssertionError {

  private static final long serialVersionUID = 1L;

  Violation(String message) {
    super(message);
  }

  Violation(String message, Throwable cause) {
    super(message, cause);
  }
}
