package dev.bulwark;

/** A held read or write lock on one key. */
public interface LockPermit extends Permit {

  /** The lock's name. */
  String name();

  /** The locked resource's key; empty for a lock without {@link LockKey}. */
  String key();

  LockMode mode();

  /**
   * A number that grows with every write grant of this key, so a downstream that remembers the
   * highest token it has seen can reject a stale holder. For a read lock, the token of the last
   * write grant the store knows of (or 0).
   */
  long fencingToken();
}
