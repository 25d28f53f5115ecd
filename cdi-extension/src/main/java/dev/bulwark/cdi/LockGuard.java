package dev.bulwark.cdi;

import dev.bulwark.LockMode;
import dev.bulwark.core.engine.KeyedLock;

/** The lock of one method: its family, its mode and which arguments form the key. */
record LockGuard(KeyedLock lock, LockMode mode, LockKeys keys) {}
