package dev.bulwark.cdi;

import dev.bulwark.core.engine.BulkheadLimiter;

/** The bulkhead of one method: the shared limit and this method's waiting time. */
record BulkheadGuard(BulkheadLimiter limiter, long waitNanos) {}
