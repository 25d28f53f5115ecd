package dev.bulwark.tck.modelcheck;

import java.math.BigInteger;
import java.time.Duration;
import java.util.Map;

/**
 * What one exploration covered: distinct states (canonical store contents and callers' state),
 * steps run against the store (transitions, including those reaching known states), the number of
 * distinct action sequences of up to {@code depth} steps those transitions stand for, the steps the
 * end-of-sequence check ran, how often each kind of action ran, and how long it took.
 */
public record Exploration(
    String name,
    int states,
    long transitions,
    BigInteger sequences,
    int depth,
    long finalCheckSteps,
    Map<String, Long> actionsRun,
    Duration took) {

  @Override
  public String toString() {
    return String.format(
        "%s: %,d states, %,d transitions, %,d interleavings of up to %d steps,"
            + " %,d end-check steps, %d s; actions run %s",
        name, states, transitions, sequences, depth, finalCheckSteps, took.toSeconds(), actionsRun);
  }
}
