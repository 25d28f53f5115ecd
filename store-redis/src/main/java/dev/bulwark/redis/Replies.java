package dev.bulwark.redis;

import dev.bulwark.Holder;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.StoreException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

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

  /** A number in a reply: an integer, or an integer the script sent as text (past 2^53). */
  static long number(Object reply) {
    if (reply instanceof Long value) {
      return value;
    }
    try {
      return Long.parseLong(text(reply));
    } catch (NumberFormatException e) {
      throw new StoreException("Unexpected number from a Bulwark script: " + text(reply));
    }
  }

  /** A text in a reply. */
  static String text(Object reply) {
    if (reply instanceof String text) {
      return text;
    }
    if (reply instanceof byte[] bytes) {
      return new String(bytes, StandardCharsets.UTF_8);
    }
    throw new StoreException("Unexpected reply from a Bulwark script: " + reply);
  }

  /**
   * The holders in {@code reply} from {@code from} on: triples of member, lease expiry and grant
   * time.
   */
  static List<Holder> holders(List<?> reply, int from) {
    List<Holder> holders = new ArrayList<>();
    for (int i = from; i + 2 < reply.size(); i += 3) {
      holders.add(holder(text(reply.get(i)), text(reply.get(i + 1)), text(reply.get(i + 2))));
    }
    return holders;
  }

  /**
   * A member ({@code <instance>:<request>}), its lease expiry in millis (a score) and when it was
   * granted in micros ({@code ""}: not recorded, a holder granted before grant times were).
   */
  static Holder holder(String member, String expiryMillis, String sinceMicros) {
    int split = member.lastIndexOf(':');
    try {
      return new Holder(
          member.substring(0, split),
          Long.parseLong(member.substring(split + 1)),
          Optional.of(Instant.ofEpochMilli((long) Double.parseDouble(expiryMillis))),
          sinceMicros.isEmpty()
              ? Optional.empty()
              : Optional.of(Instant.EPOCH.plus(Long.parseLong(sinceMicros), ChronoUnit.MICROS)));
    } catch (RuntimeException e) {
      throw new StoreException(
          "Unexpected holder in Redis: " + member + " " + expiryMillis + " " + sinceMicros);
    }
  }

  static long integer(Object reply) {
    if (reply instanceof Long outcome) {
      return outcome;
    }
    throw new StoreException("Unexpected reply from a Bulwark script: " + reply);
  }
}
