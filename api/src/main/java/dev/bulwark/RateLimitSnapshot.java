package dev.bulwark;

/**
 * A rate limit as the store sees it at one instant, across every JVM that shares the store.
 *
 * @param limit permits per window
 * @param available permits a call could take now without waiting
 */
public record RateLimitSnapshot(String name, int limit, int available) {}
