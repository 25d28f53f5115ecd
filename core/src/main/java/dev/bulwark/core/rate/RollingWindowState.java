package dev.bulwark.core.rate;

import dev.bulwark.RateLimitType;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import java.util.Objects;

/**
 * A sliding log of grant times, ascending: a permit is granted at the first instant when fewer than
 * {@code permits} grants lie in the window ending there. Waiting callers reserve future times,
 * appended in order. The log holds at most {@code permits} grants plus those reservations, and a
 * call costs O(1) amortised: it drops what expired and appends one time (see {@link GrantLog}).
 *
 * <p>A reservation lies one window after a grant that is still in the log while the reservation is
 * in the future, so it is never earlier than the oldest time plus the window; a grant that had
 * started when the log was last written is earlier than that, since the oldest time had not expired
 * then. This tells started grants from reservations whatever the permits were when they were
 * written (a limit redefined with more permits finds reservations among its first {@code permits}
 * times). A clock that steps back is clamped to the newest started grant, which keeps the log
 * ascending and every delay non-negative.
 *
 * <p>Slots are given in the order of the calls: a new slot never starts before the newest one.
 * Without a redefinition the window alone sees to that; a limit redefined with other permits while
 * slots are reserved could otherwise place a slot before a reserved one (more permits: the new
 * permits are free now; fewer: the slot a window after the {@code permits}-th newest can lie before
 * later reservations), and the log would no longer be ascending.
 *
 * <p>Persisted form: the grant times, ascending.
 *
 * @param grants the grant times, ascending
 */
public record RollingWindowState(GrantLog grants) implements RateState {

  static final RollingWindowState INITIAL = new RollingWindowState(GrantLog.EMPTY);

  public RollingWindowState {
    Objects.requireNonNull(grants, "grants");
  }

  @Override
  public RateLimitType type() {
    return RateLimitType.ROLLING;
  }

  @Override
  public ReservationOutcome reserve(RateSpec spec, long now, long maxWait) {
    if (spec.type() != RateLimitType.ROLLING) {
      return RateState.initial(spec.type()).reserve(spec, now, maxWait);
    }
    RollingStep step = step(grants, spec, now, maxWait);
    GrantLog log = grants.withoutOldest(step.expired());
    if (!step.decision().granted()) {
      return new ReservationOutcome(
          step.decision(), step.expired() == 0 ? this : new RollingWindowState(log));
    }
    return new ReservationOutcome(step.decision(), new RollingWindowState(log.append(step.slot())));
  }

  /**
   * The arithmetic of {@link #reserve} on a log read by position, for a store that keeps its log
   * elsewhere and changes it as the step says. Reads the log's newest time; when that lies in the
   * future, the oldest and the times around {@code permits} (a binary search only after a
   * redefinition while slots are reserved); then O(log expired) times to find the first that has
   * not expired (a galloping search: the log is ascending) and the time {@code permits} before the
   * newest. So a call costs what expired plus O(1) reads, however long the log.
   *
   * @param spec a ROLLING limit
   */
  public static RollingStep step(GrantTimes log, RateSpec spec, long now, long maxWait) {
    if (spec.type() != RateLimitType.ROLLING) {
      throw new IllegalArgumentException("step: " + spec.name() + " is not a ROLLING limit");
    }
    int permits = spec.permits();
    long window = spec.windowNanos();
    int size = log.size();
    if (size > 0 && log.get(size - 1) > now) {
      now = Math.max(now, log.get(newestStarted(log, permits, window)));
    }
    int expired = timesUpTo(log, now - window);
    int left = size - expired;
    // the time permits before the newest is the same position with or without the expired head
    long at = left < permits ? now : log.get(size - permits) + window;
    if (left > 0) {
      at = Math.max(at, log.get(size - 1));
    }
    long delay = at - now;
    if (delay > maxWait) {
      return new RollingStep(RateDecision.rejected(delay), expired, at);
    }
    return new RollingStep(RateDecision.grantedAfter(delay), expired, at);
  }

  /**
   * How many of the oldest times are at or before {@code time}: the log is ascending, so they are a
   * head of it, found by doubling a bound past it and then halving (O(log count) reads).
   */
  private static int timesUpTo(GrantTimes log, long time) {
    int size = log.size();
    if (size == 0 || log.get(0) > time) {
      return 0;
    }
    int upTo = 0; // log.get(upTo) <= time
    int after = 1; // log.get(after) > time, or the end
    while (after < size && log.get(after) <= time) {
      upTo = after;
      after = (int) Math.min(size, 2L * after);
    }
    after = Math.min(after, size);
    while (after - upTo > 1) {
      int middle = (upTo + after) >>> 1;
      if (log.get(middle) <= time) {
        upTo = middle;
      } else {
        after = middle;
      }
    }
    return after;
  }

  /**
   * The index of the newest time earlier than the oldest plus the window: the newest grant that had
   * started when the log was written. Without a redefinition that is the last of the first {@code
   * permits} (checked first, so a call stays O(1)); otherwise a binary search finds it.
   */
  private static int newestStarted(GrantTimes log, int permits, long window) {
    long reservedFrom = log.get(0) + window;
    int guess = Math.min(log.size(), permits) - 1;
    if (log.get(guess) < reservedFrom
        && (guess + 1 == log.size() || log.get(guess + 1) >= reservedFrom)) {
      return guess;
    }
    int started = 0; // log.get(started) < reservedFrom
    int reserved = log.size(); // log.get(reserved) >= reservedFrom, or the end
    while (reserved - started > 1) {
      int middle = (started + reserved) >>> 1;
      if (log.get(middle) < reservedFrom) {
        started = middle;
      } else {
        reserved = middle;
      }
    }
    return started;
  }

  @Override
  public long[] toLongs() {
    return grants.toArray();
  }

  static RollingWindowState fromLongs(long[] longs) {
    return new RollingWindowState(GrantLog.of(longs));
  }
}
