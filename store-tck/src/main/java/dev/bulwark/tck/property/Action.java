package dev.bulwark.tck.property;

/**
 * A kind of step an {@link ActionChain} may take: when it may (its precondition on the state), and
 * a generator of its steps, which may depend on the state (a release of one of the current
 * holders).
 */
public interface Action<S> {

  /** Whether the action may be taken in {@code state}; always, unless overridden. */
  default boolean precondition(S state) {
    return true;
  }

  /** The steps the action may take from {@code state}. */
  Gen<ChainStep<S>> steps(S state);

  /** An action whose steps do not depend on the state. */
  static <S> Action<S> independent(Gen<ChainStep<S>> steps) {
    return state -> steps;
  }
}
