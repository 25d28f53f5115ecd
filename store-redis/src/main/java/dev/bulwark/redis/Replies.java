package dev.bulwark.redis;

import dev.bulwark.spi.Grant;
import dev.bulwark.spi.StoreException;

/**
 * Reads the scripts' replies: one integer each, its sign the outcome (the convention is written
 * down once, in {@code scripts/lib/common.lua}).
 */
final class Replies {

  private Replies() {}

  /** A permit script's reply: 1 granted, 0 queued, -1 rejected. */
  static Grant permit(Object reply) {
    long outcome = integer(reply);
    if (outcome > 0) {
      return Grant.GRANTED;
    }
    return outcome == 0 ? Grant.QUEUED : Grant.REJECTED;
  }

  /** A lock script's reply: the fencing token (> 0) granted, 0 queued, -1 rejected. */
  static Grant lock(Object reply) {
    long outcome = integer(reply);
    if (outcome > 0) {
      return Grant.granted(outcome);
    }
    return outcome == 0 ? Grant.QUEUED : Grant.REJECTED;
  }

  /** A release script's reply: 1 released, 0 when the store held nothing for the member. */
  static boolean released(Object reply) {
    return integer(reply) == 1;
  }

  private static long integer(Object reply) {
    if (reply instanceof Long outcome) {
      return outcome;
    }
    throw new StoreException("Unexpected reply from a Bulwark script: " + reply);
  }
}
