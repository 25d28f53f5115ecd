package dev.bulwark.core.rate;

import dev.bulwark.spi.RateDecision;
import java.util.Objects;

/**
 * One ROLLING reservation decided on a log ({@link RollingWindowState#step}), as the changes a
 * store makes to its log: drop the {@code expired} oldest times, then, when granted, append {@code
 * slot}.
 *
 * @param decision granted (with the delay before the slot) or rejected (with the time until the
 *     next permit)
 * @param expired how many of the oldest times left the window; dropped even when rejected
 * @param slot the time appended when granted (never earlier than the log's newest)
 */
public record RollingStep(RateDecision decision, int expired, long slot) {

  public RollingStep {
    Objects.requireNonNull(decision, "decision");
  }
}
