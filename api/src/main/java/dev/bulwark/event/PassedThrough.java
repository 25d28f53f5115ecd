package dev.bulwark.event;

/** The store could not be reached and the {@code fail-open} policy let a call through unguarded. */
public record PassedThrough(LimitType type, String name, String key) implements LimitEvent {}
