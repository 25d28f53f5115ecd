package dev.bulwark.core.event;

import java.util.concurrent.atomic.LongAdder;

/**
 * What happened at one limit, counted without locks; one instance per limit, resolved with it, so
 * the hot path increments a field and looks nothing up.
 */
public final class LimitStats {

  private final LongAdder granted = new LongAdder();
  private final LongAdder waited = new LongAdder();
  private final LongAdder rejected = new LongAdder();
  private final LongAdder storeFailures = new LongAdder();
  private final LongAdder passedThrough = new LongAdder();
  private final LongAdder leasesLost = new LongAdder();
  private final LongAdder expiredAtRelease = new LongAdder();

  void onGranted() {
    granted.increment();
  }

  void onWaited() {
    waited.increment();
  }

  void onRejected() {
    rejected.increment();
  }

  void onStoreFailure() {
    storeFailures.increment();
  }

  void onPassedThrough() {
    passedThrough.increment();
  }

  void onLeaseLost() {
    leasesLost.increment();
  }

  void onExpiredAtRelease() {
    expiredAtRelease.increment();
  }

  /** Calls admitted, with or without waiting. */
  public long granted() {
    return granted.sum();
  }

  /** Calls admitted after waiting in the queue or for a reserved slot. */
  public long waited() {
    return waited.sum();
  }

  public long rejected() {
    return rejected.sum();
  }

  /** Store calls that failed; the failure policy decided what the caller got. */
  public long storeFailures() {
    return storeFailures.sum();
  }

  /** Calls let through unguarded by the {@code fail-open} policy. */
  public long passedThrough() {
    return passedThrough.sum();
  }

  /** Held permits the store no longer knew when their lease was renewed. */
  public long leasesLost() {
    return leasesLost.sum();
  }

  /** Releases of grants the store no longer held: their lease had run out during the call. */
  public long expiredAtRelease() {
    return expiredAtRelease.sum();
  }
}
