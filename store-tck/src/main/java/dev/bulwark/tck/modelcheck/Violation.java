package dev.bulwark.tck.modelcheck;

/** A broken invariant, with the sequence of actions that led to it once the explorer adds it. */
public final class Violation extends AssertionError {

  private static final long serialVersionUID = 1L;

  public Violation(String message) {
    super(message);
  }

  public Violation(String message, Throwable cause) {
    super(message, cause);
  }
}
