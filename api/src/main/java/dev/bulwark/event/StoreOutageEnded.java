package dev.bulwark.event;

import java.time.Duration;

/**
 * A store call succeeded again after an outage.
 *
 * @param lasted from the first failed call to this one
 */
public record StoreOutageEnded(String store, Duration lasted) implements BulwarkEvent {}
