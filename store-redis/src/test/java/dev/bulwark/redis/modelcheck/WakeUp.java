package dev.bulwark.redis.modelcheck;

/** A wake-up on its way to a JVM: the request it names (0-based) and the token it carries. */
record WakeUp(int request, long token) {}
