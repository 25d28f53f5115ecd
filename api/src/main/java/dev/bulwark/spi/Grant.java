package dev.bulwark.spi;

/**
 * A store's answer to an acquire, poll or cancel. The fencing token is meaningful for granted write
 * locks only; everything else uses the shared constants so the hot path allocates nothing.
 */
public record Grant(Outcome outcome, long fencingToken) {

  public static final Grant GRANTED = new Grant(Outcome.GRANTED, 0);
  public static final Grant QUEUED = new Grant(Outcome.QUEUED, 0);
  public static final Grant REJECTED = new Grant(Outcome.REJECTED, 0);

  public static Grant granted(long fencingToken) {
    return fencingToken == 0 ? GRANTED : new Grant(Outcome.GRANTED, fencingToken);
  }

  public boolean isGranted() {
    return outcome == Outcome.GRANTED;
  }
}
