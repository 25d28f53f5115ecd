package dev.bulwark.redis.modelcheck;

/** What a request asks for: a permit of the bulkhead, or the lock key to read or to write. */
enum Kind {
  PERMIT,
  READ,
  WRITE
}
