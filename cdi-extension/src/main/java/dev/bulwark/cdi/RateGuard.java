package dev.bulwark.cdi;

import dev.bulwark.core.engine.RateLimiter;

/**
 * The rate limit of one method: the shared limit, this method's waiting time, and how its
 * asynchronous result is started (null for a synchronous method).
 */
record RateGuard(RateLimiter limiter, long waitNanos, AsyncReturn async) {}
