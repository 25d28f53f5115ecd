package dev.bulwark.cdi;

import dev.bulwark.LockMode;
import dev.bulwark.core.engine.KeyedLock;

/**
 * The lock of one method: its family, its mode, which arguments form the key, its wait, and how its
 * asynchronous result is held (null for a synchronous method).
 */
record LockGuard(KeyedLock lock, LockMode mode, LockKeys keys, long waitNanos, AsyncReturn async) {}
