package dev.bulwark.tck.modelcheck;

import dev.bulwark.spi.Grant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The part of the model check that differs between stores: one bulkhead or one lock key of the
 * store under check, used by the scenario's JVMs through the store's own classes. Requests are
 * named by their position in the scenario ({@link Bounds#requests}), JVMs by their index. The
 * driver acts on the store, reads and rewrites everything the store keeps for the limit, sets the
 * store's clock, and captures the wake-ups the store sends; the {@link Explorer} does the rest.
 */
public interface StoreDriver {

  /** The store's name for a request: its JVM's instance id and its request id. */
  String member(int request);

  /** The request a member of this scenario names, or -1. */
  int requestOf(String member);

  Grant acquire(int request);

  Grant poll(int request);

  Grant cancel(int request);

  boolean release(int request);

  /**
   * Runs {@code operation} of {@code request}, losing its reply: the call fails as the store fails
   * it. Returns the give-up the store then sends, unrun, if it sends one.
   */
  Optional<GiveUp> losingReply(int request, Caller.Operation operation);

  /** The store operation {@code operation} of {@code request}, to run with its reply lost. */
  default Supplier<?> call(int request, Caller.Operation operation) {
    return switch (operation) {
      case ACQUIRE -> () -> acquire(request);
      case POLL -> () -> poll(request);
      case CANCEL -> () -> cancel(request);
      case RELEASE -> () -> release(request);
    };
  }

  /**
   * Applies {@code entries} (operations of requests of one JVM) as one batch, through the store's
   * batch call ({@code PermitStore.apply}, {@code LockStore.apply}) as that JVM's engine sends it:
   * whichever implementation the store has, its own or the SPI's default.
   *
   * @return one answer per entry, in order; a release answers GRANTED when it released
   */
  List<Grant> apply(List<BatchEntry> entries);

  /**
   * How many store steps the batch call makes for {@code entries}, each answered on its own: 1 for
   * a store that applies a batch as one step (one script call, one transaction), one per operation
   * for the SPI's default, which sends them one at a time.
   */
  int batchSteps(List<BatchEntry> entries);

  /**
   * Runs the batch call for {@code entries}, losing the reply of its step {@code step} (1-based, at
   * most {@link #batchSteps}): the steps before it answered, it ran, the ones after it were never
   * sent, and the call fails as the store fails it. Returns the give-up the store then sends,
   * unrun, if it sends one.
   */
  Optional<GiveUp> applyLosingReply(List<BatchEntry> entries, int step);

  /**
   * The give-up the store sends when the reply of a batch of {@code entries} in flight, which it
   * applied whole, is lost (a lost reply, a connection reset), built without sending the batch
   * again; unrun. None by default: a store that sends no give-up, or whose batches are never in
   * flight.
   */
  default Optional<GiveUp> giveUpAfterLosing(List<BatchEntry> entries) {
    return Optional.empty();
  }

  /** Runs a give-up that {@link #losingReply} returned. */
  void giveUp(int request, GiveUp giveUp);

  /** Whether the store's client sends a call whose reply was lost again ({@link Action.Resend}). */
  boolean resendsLostCalls();

  /** Renews the given requests of one JVM in one batch; returns those the store reports lost. */
  List<Integer> renew(int jvm, List<Integer> requests);

  /**
   * Whether {@link #renewingDuring} can commit a renewal between a step's read and its write; when
   * it can, the exploration also tries each step of a request with another JVM's renewal racing it
   * ({@link Action.RenewDuring}).
   */
  default boolean renewsDuringSteps() {
    return false;
  }

  /**
   * Runs {@code step} (one store operation: acquire, poll, cancel or release) with {@code jvm}'s
   * renewal of {@code requests} committed after the step read the store and before its first write,
   * or after the step when it writes nothing; returns the requests the renewal reports lost.
   */
  default List<Integer> renewingDuring(int jvm, List<Integer> requests, Runnable step) {
    throw new UnsupportedOperationException("this store cannot renew inside a step");
  }

  /** Reads the store's contents, with the wake-ups sent since the last read. */
  StoreContents read();

  /** The contents of a store that never saw the limit. */
  StoreContents empty();

  /** Puts the store back as {@code contents}, its clock at {@code nowMillis}. */
  void restore(StoreContents contents, long nowMillis);

  /** Deletes one of the structures {@link StoreContents#present} names, as its expiry would. */
  void expire(String structure);

  /**
   * Work the store does on its own in {@code at}, apart from expiry: a cleanup task, a JVM's look
   * for hand-overs. Named for {@link #runOwnWork}; none by default.
   */
  default List<String> ownWork(ExploredState at) {
    return List.of();
  }

  /** Runs one piece of work {@link #ownWork} named. */
  default void runOwnWork(String work) {
    throw new UnsupportedOperationException(work);
  }

  void setClock(long nowMillis);

  /**
   * The wake-ups the last step sent, in the order sent, as {@code contents} (just read) has them.
   */
  List<WakeUp> wakeUps(StoreContents contents);

  /**
   * Whether every step that hands over drops expired holders first, so that after it a lease's end
   * leaves no waiter behind; otherwise only a step that {@linkplain Action#reclaims reclaims} does.
   */
  default boolean everyStepReclaims() {
    return false;
  }
}
