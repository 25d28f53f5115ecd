package dev.bulwark.event;

/** An event of one limit: its type, its name and, for a lock, the key (empty otherwise). */
public sealed interface LimitEvent extends BulwarkEvent
    permits Granted, Rejected, Released, LeaseLost, LeaseExpiredAtRelease, PassedThrough {

  LimitType type();

  String name();

  /** The lock key; empty for bulkheads, rate limits and a lock without {@code @LockKey}. */
  String key();
}
