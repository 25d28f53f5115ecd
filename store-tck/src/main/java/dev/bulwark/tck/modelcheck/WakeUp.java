package dev.bulwark.tck.modelcheck;

/** A wake-up on its way to a JVM: the request it names (0-based) and the token it carries. */
public record WakeUp(int request, long token) {}
