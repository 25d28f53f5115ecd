package dev.bulwark.spi;

/**
 * One family of keyed read-write locks as a store sees it.
 *
 * @param name the lock's name
 * @param leaseMillis how long a holder's lock lives without renewal
 * @param waitMillis how long a queued request may wait
 */
public record LockSpec(String name, long leaseMillis, long waitMillis) {}
