package dev.bulwark.tck.modelcheck;

/**
 * One request of a scenario: which JVM makes it (0-based) and what it asks for. Its request id in
 * the store is its position in the scenario plus one.
 */
public record Request(int jvm, Kind kind) {}
