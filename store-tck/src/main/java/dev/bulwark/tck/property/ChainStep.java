package dev.bulwark.tck.property;

import java.util.function.Consumer;

/**
 * One step of an {@link ActionChain}: what it does to the state, and how the report names it.
 *
 * @param description how a failure's report lists the step
 * @param effect what the step does (and checks) on the state
 */
public record ChainStep<S>(String description, Consumer<S> effect) {

  public static <S> ChainStep<S> of(String description, Consumer<S> effect) {
    return new ChainStep<>(description, effect);
  }

  @Override
  public String toString() {
    return description;
  }
}
