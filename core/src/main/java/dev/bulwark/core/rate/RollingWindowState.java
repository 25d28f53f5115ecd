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
 * <p>A reservation lies {@code permits} places after the grant it waits for, which is still in the
 * log while the reservation is in the future; so the first {@code permits} times of the log are
 * grants that had started when the log was last written. A clock that steps back is clamped to the
 * newest of them, which keeps the log ascending and every delay non-negative.
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
  public RateStep reserve(RateSpec spec, long now, long maxWait) {
    if (spec.type() != RateLimitType.ROLLING) {
      return RateState.initial(spec.type()).reserve(spec, now, maxWait);
    }
    int permits = spec.permits();
    long window = spec.windowNanos();
    GrantLog log = grants;
    if (log.size() > 0) {
      now = Math.max(now, log.get(Math.min(log.size(), permits) - 1));
    }
    int expired = 0;
    while (expired < log.size() && log.get(expired) <= now - window) {
      expired++;
    }
    log = log.withoutOldest(expired);
    long at = log.size() < permits ? now : log.get(log.size() - permits) + window;
    long delay = at - now;
    if (delay > maxWait) {
      return new RateStep(
          RateDecision.rejected(delay), expired == 0 ? this : new RollingWindowState(log));
    }
    return new RateStep(RateDecision.grantedAfter(delay), new RollingWindowState(log.append(at)));
  }

  @Override
  public long[] toLongs() {
    return grants.toArray();
  }

  static RollingWindowState fromLongs(long[] longs) {
    return new RollingWindowState(GrantLog.of(longs));
  }
}
