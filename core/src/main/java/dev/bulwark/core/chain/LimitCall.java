package dev.bulwark.core.chain;

import dev.bulwark.LockMode;

/**
 * One call at a limit, as the links of its chain see it: how long it may wait, and for a lock the
 * key and mode it asks for. A bulkhead's or rate limit's call has no key (the empty one, under
 * which its events are reported) and no mode.
 *
 * @param key the lock key; empty for a bulkhead or rate limit
 * @param mode the lock mode; null for a bulkhead or rate limit
 * @param maxWaitNanos how long the call may wait to be admitted; 0 for no wait
 */
public record LimitCall(String key, LockMode mode, long maxWaitNanos) {

  /** A call at a bulkhead or rate limit. */
  public static LimitCall unkeyed(long maxWaitNanos) {
    return new LimitCall("", null, maxWaitNanos);
  }

  /** A call for a lock's key. */
  public static LimitCall lock(String key, LockMode mode, long maxWaitNanos) {
    return new LimitCall(key, mode, maxWaitNanos);
  }
}
