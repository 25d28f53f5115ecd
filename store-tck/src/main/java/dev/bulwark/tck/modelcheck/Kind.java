package dev.bulwark.tck.modelcheck;

/** What a request asks for: a permit of the bulkhead, or the lock key to read or to write. */
public enum Kind {
  PERMIT,
  READ,
  WRITE
}
