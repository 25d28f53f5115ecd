package dev.bulwark.core.rate;

import dev.bulwark.spi.RateDecision;
import java.util.Objects;

/**
 * The outcome of one reservation: what the caller gets and the state the store keeps from now on.
 *
 * @param decision granted (with the delay before the reserved slot) or rejected (with the time
 *     until the next permit)
 * @param next the state after this reservation; the same state when nothing changed
 */
public record ReservationOutcome(RateDecision decision, RateState next) {

  public ReservationOutcome {
    Objects.requireNonNull(decision, "decision");
    Objects.requireNonNull(next, "next");
  }
}
