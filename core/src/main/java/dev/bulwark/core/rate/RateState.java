package dev.bulwark.core.rate;

import dev.bulwark.RateLimitType;
import dev.bulwark.spi.RateSpec;

/**
 * The state of one rate limit, as an immutable value, and its arithmetic as a pure function: {@link
 * #reserve} returns the decision and the next state and changes nothing. A store keeps one state
 * per limit and swaps it atomically against its own clock; a table store persists {@link
 * #toLongs()} in a row and reads it back with {@link #fromLongs}.
 *
 * <p>Times are in one unit chosen by the store (the local store: nanoseconds since the epoch), the
 * same as {@link RateSpec#windowNanos()} and the maximum wait. A clock that steps back (a failover
 * to a host whose clock lags) never moves a state backwards: fixed and rolling windows clamp {@code
 * now} to the latest time their state proves the clock has passed, so they behave as if time stood
 * still until the clock catches up; GCRA's arrival time only grows, so a step back only lengthens
 * the delays it gives.
 */
public sealed interface RateState permits GcraState, FixedWindowState, RollingWindowState {

  /** The algorithm this state belongs to. */
  RateLimitType type();

  /**
   * Takes a permit at {@code now}, or reserves the first slot that starts no later than {@code now
   * + maxWait}; otherwise the next state takes nothing, and the decision says how long until the
   * next permit. A state of another type than {@code spec.type()} (a limit whose definition
   * changed) is replaced by a new state of that type.
   */
  ReservationOutcome reserve(RateSpec spec, long now, long maxWait);

  /**
   * The persistable form, in the order documented on each type: {@link GcraState} two longs, {@link
   * FixedWindowState} two longs, {@link RollingWindowState} its grant times ascending.
   */
  long[] toLongs();

  /**
   * How many permits calls could take at {@code now} without waiting: the reservations this state
   * would grant in a row, computed by the same arithmetic and changing nothing. Costs one step per
   * permit, at most {@code spec.permits()}; meant for operators, not for the hot path.
   */
  default int available(RateSpec spec, long now) {
    RateState state = this;
    for (int taken = 0; taken < spec.permits(); taken++) {
      ReservationOutcome outcome = state.reserve(spec, now, 0);
      if (!outcome.decision().granted()) {
        return taken;
      }
      state = outcome.next();
    }
    return spec.permits();
  }

  /** A limit that has given no permit yet. */
  static RateState initial(RateLimitType type) {
    return switch (type) {
      case SMOOTH -> GcraState.INITIAL;
      case FIXED -> FixedWindowState.INITIAL;
      case ROLLING -> RollingWindowState.INITIAL;
    };
  }

  /**
   * Reads back what {@link #toLongs()} wrote for a state of {@code type}.
   *
   * @throws IllegalArgumentException when {@code longs} is not such a form
   */
  static RateState fromLongs(RateLimitType type, long[] longs) {
    return switch (type) {
      case SMOOTH -> GcraState.fromLongs(longs);
      case FIXED -> FixedWindowState.fromLongs(longs);
      case ROLLING -> RollingWindowState.fromLongs(longs);
    };
  }
}
