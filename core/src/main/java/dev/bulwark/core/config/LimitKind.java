package dev.bulwark.core.config;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.event.LimitType;
import java.lang.annotation.Annotation;
import java.util.List;

/** The three primitives, with their annotation and the names their config keys use. */
public enum LimitKind {
  BULKHEAD(
      DistributedBulkhead.class,
      "bulkhead",
      LimitType.BULKHEAD,
      List.of("value", "waiting-time", "lease", "enabled")),
  RATE_LIMIT(
      DistributedRateLimit.class,
      "rate-limit",
      LimitType.RATE_LIMIT,
      List.of("value", "window", "type", "waiting-time", "enabled")),
  LOCK(DistributedLock.class, "lock", LimitType.LOCK, List.of("waiting-time", "lease", "enabled"));

  private final Class<? extends Annotation> annotationType;
  private final String configSegment;
  private final LimitType type;
  private final List<String> namedMembers;

  LimitKind(
      Class<? extends Annotation> annotationType,
      String configSegment,
      LimitType type,
      List<String> namedMembers) {
    this.annotationType = annotationType;
    this.configSegment = configSegment;
    this.type = type;
    this.namedMembers = namedMembers;
  }

  /** The kind whose binding is {@code annotationType}. */
  public static LimitKind of(Class<? extends Annotation> annotationType) {
    for (LimitKind kind : values()) {
      if (kind.annotationType == annotationType) {
        return kind;
      }
    }
    throw new IllegalArgumentException(annotationType + " is not a Bulwark binding");
  }

  public Class<? extends Annotation> annotationType() {
    return annotationType;
  }

  /** The simple annotation name, used by MicroProfile FT style keys. */
  public String annotationName() {
    return annotationType.getSimpleName();
  }

  /** The segment of named keys: {@code bulwark.<segment>.<name>.<member>}. */
  public String configSegment() {
    return configSegment;
  }

  /** The members named keys spell: {@code bulwark.<segment>.<name>.<member>}. */
  public List<String> namedMembers() {
    return namedMembers;
  }

  /** The same primitive as events name it. */
  public LimitType type() {
    return type;
  }
}
