package dev.bulwark.tck.model;

/**
 * What is known of one instant on a store's clock: that it lies between {@code earliest} and {@code
 * latest} (nanoseconds since the epoch, both included). A call's instant is known only this way,
 * from readings of the store's clock taken just before and just after it.
 *
 * @param earliest the earliest the instant may be
 * @param latest the latest the instant may be, no earlier than {@code earliest}
 */
public record TimeSpan(long earliest, long latest) {

  public TimeSpan {
    if (latest < earliest) {
      throw new IllegalArgumentException("An empty span: " + earliest + " to " + latest);
    }
  }

  /** An instant known exactly. */
  public static TimeSpan at(long instant) {
    return new TimeSpan(instant, instant);
  }

  /** Every instant of this span moved by {@code nanos}. */
  public TimeSpan plus(long nanos) {
    return new TimeSpan(earliest + nanos, latest + nanos);
  }

  /** The later of an instant of this span and an instant of {@code other}. */
  public TimeSpan max(TimeSpan other) {
    return new TimeSpan(Math.max(earliest, other.earliest), Math.max(latest, other.latest));
  }

  /** The instants of this span within {@code [from, to]}, or null when there are none. */
  public TimeSpan within(long from, long to) {
    long lo = Math.max(earliest, from);
    long hi = Math.min(latest, to);
    return lo <= hi ? new TimeSpan(lo, hi) : null;
  }

  /** The instants of both spans, or null when they share none. */
  public TimeSpan within(TimeSpan other) {
    return within(other.earliest, other.latest);
  }

  @Override
  public String toString() {
    return earliest == latest
        ? Long.toString(earliest)
        : "[" + earliest + " +" + (latest - earliest) + "]";
  }
}
