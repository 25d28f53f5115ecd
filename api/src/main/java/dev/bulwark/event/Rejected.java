package dev.bulwark.event;

import java.time.Duration;

/**
 * A call was not admitted; the caller got the limit's exception.
 *
 * @param waited how long it waited before being turned away
 */
public record Rejected(
    LimitType type, String name, String key, RejectionReason reason, Duration waited)
    implements LimitEvent {}
