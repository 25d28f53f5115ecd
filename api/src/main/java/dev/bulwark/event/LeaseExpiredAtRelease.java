package dev.bulwark.event;

/**
 * A call ended and released a grant the store no longer held: its lease had run out while the call
 * ran (a pause longer than the lease, or renewals that could not reach the store), so for a while
 * the call ran unguarded.
 */
public record LeaseExpiredAtRelease(LimitType type, String name, String key)
    implements LimitEvent {}
