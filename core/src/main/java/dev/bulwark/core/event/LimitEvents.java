package dev.bulwark.core.event;

import dev.bulwark.core.log.BulwarkLog;
import dev.bulwark.event.BulwarkEvent;
import dev.bulwark.event.BulwarkListener;
import dev.bulwark.event.Granted;
import dev.bulwark.event.LeaseExpiredAtRelease;
import dev.bulwark.event.LeaseLost;
import dev.bulwark.event.LimitType;
import dev.bulwark.event.PassedThrough;
import dev.bulwark.event.Rejected;
import dev.bulwark.event.RejectionReason;
import dev.bulwark.event.Released;
import java.time.Duration;

/**
 * Where everything that happens at one limit is reported: its {@link LimitStats} always, and the
 * application's listener when there is one. Built once with the limit; with no listener each report
 * is a counter increment and a null check.
 */
public final class LimitEvents {

  private static final BulwarkLog LOG = BulwarkLog.of(LimitEvents.class);

  private final LimitType type;
  private final String name;
  private final LimitStats stats = new LimitStats();
  private final BulwarkListener listener;

  public LimitEvents(LimitType type, String name, BulwarkListener listener) {
    this.type = type;
    this.name = name;
    this.listener = listener;
  }

  public LimitStats stats() {
    return stats;
  }

  /** Whether anybody listens: only then are wait and hold times measured. */
  public boolean listening() {
    return listener != null;
  }

  public LimitType type() {
    return type;
  }

  public String name() {
    return name;
  }

  // granted, rejected and released are fired only by EventLink, which exists only when listening

  public void granted(String key, long waitedNanos) {
    fire(new Granted(type, name, key, Duration.ofNanos(waitedNanos)));
  }

  public void rejected(String key, RejectionReason reason, long waitedNanos) {
    fire(new Rejected(type, name, key, reason, Duration.ofNanos(waitedNanos)));
  }

  public void released(String key, long heldNanos) {
    fire(new Released(type, name, key, Duration.ofNanos(heldNanos)));
  }

  /** A call admitted, with or without waiting ({@code CountingLink}). */
  public void countGranted() {
    stats.onGranted();
  }

  /** A call the limit refused ({@code CountingLink}). */
  public void countRejected() {
    stats.onRejected();
  }

  public void queued() {
    stats.onWaited();
  }

  public void leaseLost(String key) {
    stats.onLeaseLost();
    if (listener != null) {
      fire(new LeaseLost(type, name, key));
    }
  }

  public void expiredAtRelease(String key) {
    stats.onExpiredAtRelease();
    if (listener != null) {
      fire(new LeaseExpiredAtRelease(type, name, key));
    }
  }

  public void storeFailed() {
    stats.onStoreFailure();
  }

  public void passedThrough(String key) {
    stats.onPassedThrough();
    if (listener != null) {
      fire(new PassedThrough(type, name, key));
    }
  }

  private void fire(BulwarkEvent event) {
    Listeners.deliver(listener, event, LOG);
  }

  /** For messages: {@code Bulkhead 'legacy-api'}. */
  @Override
  public String toString() {
    return switch (type) {
          case BULKHEAD -> "Bulkhead";
          case RATE_LIMIT -> "Rate limit";
          case LOCK -> "Lock";
        }
        + " '"
        + name
        + "'";
  }
}
