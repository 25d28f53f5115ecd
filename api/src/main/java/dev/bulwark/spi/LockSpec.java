package dev.bulwark.spi;

/**
 * One family of keyed read-write locks as a store sees it.
 *
 * @param name the lock's name
 * @param leaseMillis how long a holder's lock (and a queued request) lives without renewal
 */
public record LockSpec(String name, long leaseMillis) {}
