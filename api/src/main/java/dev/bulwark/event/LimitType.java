package dev.bulwark.event;

/** Which of Bulwark's primitives an event is about. */
public enum LimitType {
  BULKHEAD,
  RATE_LIMIT,
  LOCK
}
