package dev.bulwark.spi;

/** What a store did with a request for a permit or a lock. */
public enum Outcome {
  /** The caller holds it now. */
  GRANTED,
  /** The caller is queued; the store will hand it over and tell the {@link GrantListener}. */
  QUEUED,
  /** Not granted and not queued. */
  REJECTED
}
