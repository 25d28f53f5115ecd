package dev.bulwark.core.config;

/** The three primitives, with the names their config keys use. */
public enum LimitKind {
  BULKHEAD("DistributedBulkhead", "bulkhead"),
  RATE_LIMIT("DistributedRateLimit", "rate-limit"),
  LOCK("DistributedLock", "lock");

  private final String annotationName;
  private final String configSegment;

  LimitKind(String annotationName, String configSegment) {
    this.annotationName = annotationName;
    this.configSegment = configSegment;
  }

  /** The simple annotation name, used by MicroProfile FT style keys. */
  public String annotationName() {
    return annotationName;
  }

  /** The segment of named keys: {@code bulwark.<segment>.<name>.<member>}. */
  public String configSegment() {
    return configSegment;
  }
}
