package dev.bulwark.tck.property;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A stateful property's sample: a sequence of steps from an initial state, each chosen (among the
 * actions whose precondition holds, by weight) and generated when the state it starts from is
 * known, with invariants checked after every step. Steps are drawn while the chain runs, from the
 * draws of the try that generated the chain, so a replay of the try's choices replays the steps,
 * and a shrunk sequence of choices is a shorter chain or simpler steps.
 *
 * <p>A fresh chain runs {@code maxSteps} steps (fewer when no action may be taken); its report
 * lists the steps it ran, up to the failing one, and the state's description.
 */
public final class ActionChain<S> {

  private final Builder<S> plan;
  private final Draws draws;
  private final List<Invariant<S>> invariants = new ArrayList<>();
  private final List<String> ran = new ArrayList<>();
  private S state;

  private ActionChain(Builder<S> plan, Draws draws) {
    this.plan = plan;
    this.draws = draws;
  }

  /** A chain that starts from what {@code initial} returns, called when the chain runs. */
  public static <S> Builder<S> startWith(Supplier<S> initial) {
    return new Builder<>(initial, List.of(), 30);
  }

  /** Checks {@code check} after every step; its failure names the invariant. */
  public ActionChain<S> withInvariant(String name, Consumer<S> check) {
    invariants.add(new Invariant<>(name, check));
    return this;
  }

  /** Runs the chain; returns the final state. */
  public S run() {
    state = plan.initial.get();
    for (int n = 1; n <= plan.maxSteps; n++) {
      if (!draws.more(true)) {
        break;
      }
      List<Gen.Weighted<ChainStep<S>>> choices = new ArrayList<>();
      for (Choice<S> weighted : plan.actions) {
        if (weighted.action().precondition(state)) {
          S from = state;
          // built only when chosen: a dependent action's steps may be costly to set up
          choices.add(
              Gen.Weighted.of(weighted.weight(), d -> weighted.action().steps(from).next(d)));
        }
      }
      if (choices.isEmpty()) {
        break;
      }
      ChainStep<S> step = Gen.pick(draws, choices).gen().next(draws);
      ran.add(step.description());
      step.effect().accept(state);
      for (Invariant<S> invariant : invariants) {
        try {
          invariant.check().accept(state);
        } catch (AssertionError | RuntimeException e) {
          throw new AssertionError(
              "invariant \""
                  + invariant.name()
                  + "\" broken after step "
                  + n
                  + ": "
                  + e.getMessage(),
              e);
        }
      }
    }
    return state;
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    text.append(ran.size()).append(ran.size() == 1 ? " step" : " steps");
    for (int i = 0; i < ran.size(); i++) {
      text.append("\n    ").append(i + 1).append(". ").append(ran.get(i));
    }
    if (state != null) {
      text.append("\n    state: ").append(state);
    }
    return text.toString();
  }

  private record Invariant<S>(String name, Consumer<S> check) {}

  private record Choice<S>(int weight, Action<S> action) {}

  /** The chain's plan: its initial state, its actions with their weights, its length. */
  public static final class Builder<S> implements Gen<ActionChain<S>> {
    private final Supplier<S> initial;
    private final List<Choice<S>> actions;
    private final int maxSteps;

    private Builder(Supplier<S> initial, List<Choice<S>> actions, int maxSteps) {
      this.initial = initial;
      this.actions = actions;
      this.maxSteps = maxSteps;
    }

    /** Adds an action, chosen in proportion to {@code weight} among those that may be taken. */
    public Builder<S> withAction(int weight, Action<S> action) {
      List<Choice<S>> more = new ArrayList<>(actions);
      if (weight < 1) {
        throw new IllegalArgumentException("weight " + weight);
      }
      more.add(new Choice<>(weight, action));
      return new Builder<>(initial, List.copyOf(more), maxSteps);
    }

    /** How many steps a fresh chain runs (30 unless given). */
    public Builder<S> withMaxSteps(int maxSteps) {
      if (maxSteps < 1) {
        throw new IllegalArgumentException("max steps " + maxSteps);
      }
      return new Builder<>(initial, actions, maxSteps);
    }

    @Override
    public ActionChain<S> next(Draws draws) {
      if (actions.isEmpty()) {
        throw new IllegalStateException("a chain without actions");
      }
      return new ActionChain<>(this, draws);
    }
  }
}
