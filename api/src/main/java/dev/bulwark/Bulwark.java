package dev.bulwark;

/**
 * Programmatic entry point for code that cannot use the annotations; inject it. Limits are
 * configured by name exactly like annotated ones ({@code bulwark.bulkhead.NAME.value} …); members
 * that are not configured take the annotations' defaults.
 */
public interface Bulwark {

  BulkheadHandle bulkhead(String name);

  RateLimiterHandle rateLimiter(String name);

  LockHandle lock(String name);
}
