package dev.bulwark.redis;

import dev.bulwark.spi.Grant;
import dev.bulwark.spi.GrantListener;
import dev.bulwark.spi.Operation;
import dev.bulwark.spi.StoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * How a batch of operations travels to the batch scripts ({@code permit_batch.lua}, {@code
 * lock_batch.lua}) and back: one letter per operation kind, and a reply that lists the answers in
 * order, then the hand-overs the batch made to this JVM's requests (request id, token).
 */
final class BatchCodec {

  private BatchCodec() {}

  /** The letter a batch script reads for {@code operation}. */
  static String kind(Operation operation) {
    return switch (operation.kind()) {
      case ACQUIRE -> operation.mayQueue() ? "A" : "a";
      case POLL -> "P";
      case CANCEL -> "C";
      case RELEASE -> "R";
    };
  }

  /**
   * The letter of a give-up: a cancel that also releases a grant, and marks a request not found.
   */
  static final String GIVE_UP = "G";

  /**
   * Whether the request of {@code operation} must be given up when the batch's reply is lost: an
   * acquire or a poll may have granted it. A cancel or release is not sent again: a cancel that did
   * not run leaves the request to its lease, a release that did not run the permit to its lease.
   */
  static boolean givenUpWhenLost(Operation operation) {
    return operation.kind() == Operation.Kind.ACQUIRE || operation.kind() == Operation.Kind.POLL;
  }

  /**
   * Whether a batch's reply holds a grant the replicas must acknowledge first ({@code
   * wait-replicas}): an acquire, poll or cancel answered with a grant, or a hand-over to this JVM,
   * whose waiter starts from the reply.
   */
  static Predicate<Object> grants(List<Operation> operations) {
    return reply -> {
      if (!(reply instanceof List<?> answers)) {
        return false;
      }
      if (answers.size() > operations.size()) {
        return true;
      }
      for (int i = 0; i < answers.size(); i++) {
        if (operations.get(i).kind() != Operation.Kind.RELEASE
            && answers.get(i) instanceof Long answer
            && answer > 0) {
          return true;
        }
      }
      return false;
    };
  }

  /**
   * Reads a batch's reply: the answers in order, a release's as {@link Grant#GRANTED} when it
   * released and {@link Grant#REJECTED} when not held; tells {@code listener} of every hand-over to
   * this JVM's requests the batch made, before the answers are returned.
   *
   * @param single how the single script of an operation's kind answers (permit or lock)
   */
  static List<Grant> answers(
      Object reply,
      List<Operation> operations,
      Function<Object, Grant> single,
      GrantListener listener) {
    if (!(reply instanceof List<?> values) || values.size() < operations.size()) {
      throw new StoreException(
          "Unexpected reply from a Bulwark batch of "
              + operations.size()
              + " operations: "
              + reply);
    }
    List<Grant> answers = new ArrayList<>(operations.size());
    for (int i = 0; i < operations.size(); i++) {
      Object value = values.get(i);
      answers.add(
          operations.get(i).kind() == Operation.Kind.RELEASE
              ? (Replies.released(value) ? Grant.GRANTED : Grant.REJECTED)
              : single.apply(value));
    }
    for (int i = operations.size(); i + 1 < values.size(); i += 2) {
      listener.granted(Replies.integer(values.get(i)), Replies.integer(values.get(i + 1)));
    }
    return answers;
  }
}
