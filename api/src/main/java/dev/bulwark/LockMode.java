package dev.bulwark;

/** How a {@link DistributedLock} holds its key. */
public enum LockMode {
  /** Shared: any number of readers at once, but never beside a writer. */
  READ,
  /** Exclusive: one writer, nobody beside it. */
  WRITE;

  /** Whether a lock already held in this mode covers a nested request for {@code requested}. */
  public boolean covers(LockMode requested) {
    return this == WRITE || requested == READ;
  }
}
