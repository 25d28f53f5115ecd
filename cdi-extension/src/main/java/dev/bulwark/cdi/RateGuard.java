package dev.bulwark.cdi;

import dev.bulwark.core.engine.RateLimiter;

/** The rate limit of one method: the shared limit and this method's waiting time. */
record RateGuard(RateLimiter limiter, long waitNanos) {}
