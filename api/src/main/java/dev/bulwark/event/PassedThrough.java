package dev.bulwark.event;

/**
 * The store could not be reached and the {@code fail-open} policy let a call through unguarded. The
 * call holds nothing, so it is reported by this event alone: no {@link Granted}, no {@link
 * Released}.
 */
public record PassedThrough(LimitType type, String name, String key) implements LimitEvent {}
