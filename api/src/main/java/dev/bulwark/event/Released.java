package dev.bulwark.event;

import java.time.Duration;

/**
 * A bulkhead permit or a lock was given back when its call ended (rate limits hold nothing).
 *
 * @param held from the grant to the release
 */
public record Released(LimitType type, String name, String key, Duration held)
    implements LimitEvent {}
