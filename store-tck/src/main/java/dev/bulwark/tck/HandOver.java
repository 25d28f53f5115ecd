package dev.bulwark.tck;

/** A hand-over as a JVM's {@link dev.bulwark.spi.GrantListener} was told of it. */
public record HandOver(long requestId, long fencingToken) {}
