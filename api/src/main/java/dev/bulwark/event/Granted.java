package dev.bulwark.event;

import java.time.Duration;

/**
 * A call was admitted: it holds a permit or lock, or (rate limit) its slot has started.
 *
 * @param waited from the request to the grant, including the sleep until a reserved rate slot
 */
public record Granted(LimitType type, String name, String key, Duration waited)
    implements LimitEvent {}
