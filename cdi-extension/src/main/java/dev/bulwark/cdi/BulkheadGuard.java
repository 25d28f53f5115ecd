package dev.bulwark.cdi;

import dev.bulwark.core.engine.BulkheadLimiter;

/**
 * The bulkhead of one method: the shared limit, this method's waiting time, and how its
 * asynchronous result is held (null for a synchronous method).
 */
record BulkheadGuard(BulkheadLimiter limiter, long waitNanos, AsyncReturn async) {}
