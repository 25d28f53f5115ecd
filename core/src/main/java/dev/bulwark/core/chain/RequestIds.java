package dev.bulwark.core.chain;

import java.util.concurrent.atomic.AtomicLong;

/** Request ids, unique within this JVM; a shared store qualifies them with its instance id. */
final class RequestIds {

  private static final AtomicLong NEXT = new AtomicLong();

  private RequestIds() {}

  static long next() {
    return NEXT.incrementAndGet();
  }
}
