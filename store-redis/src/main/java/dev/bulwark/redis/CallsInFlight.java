package dev.bulwark.redis;

import java.util.concurrent.ConcurrentSkipListSet;

/**
 * The reservations of one rate limit that this JVM has sent and still waits for, numbered from 1
 * up. Each call tells the script the lowest number still waiting: no call below it can be re-sent
 * any more, so the script may forget those replies ({@code lib/remembered.lua}).
 */
final class CallsInFlight {

  /** A call's number, and the lowest number in flight when it started (its own at most). */
  record Started(long number, long oldestInFlight) {}

  private final ConcurrentSkipListSet<Long> waiting = new ConcurrentSkipListSet<>();
  private long last;

  /**
   * Numbers a new call. Numbering and joining the waiting set are one step, so no call can be
   * numbered but not yet waiting when another reads the lowest waiting number: that call would be
   * forgotten before it was sent.
   */
  synchronized Started start() {
    long number = ++last;
    waiting.add(number);
    return new Started(number, waiting.first());
  }

  void finish(long number) {
    waiting.remove(number);
  }
}
