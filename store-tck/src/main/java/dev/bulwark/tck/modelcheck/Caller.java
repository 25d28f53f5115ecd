package dev.bulwark.tck.modelcheck;

/**
 * One request as its caller knows it.
 *
 * @param phase where it is
 * @param leaseUntil while waiting or holding: the earliest instant (millis, store clock) at which
 *     the store may let it go, from the last reply that granted, queued or renewed it
 * @param since while pending: when the call whose reply was lost ran; once done: when the caller
 *     stopped caring about it ({@link #NEVER} when it never asked)
 * @param pending while pending: the operation whose reply was lost
 * @param giveUp while pending: the give-up the store sends after that loss, not yet run (null when
 *     the operation has none, or it already ran)
 * @param trustUntil while waiting: until when a hand-over notice is taken as a grant, as the
 *     engine's {@code GrantSignal} does: half a lease after the acquire that queued it first ran
 *     (the engine counts from before it asked, which is earlier still); a later notice is only a
 *     hint, answered by a poll
 * @param batched while pending: whether the lost reply was a batch's ({@link LostBatch}), whose
 *     re-send or give-up is the batch's, not this caller's alone
 * @param noticed while sent: a hand-over notice reached it before its reply and was trusted when it
 *     came; the engine registers a waiter before it asks, so the notice is kept, and a QUEUED
 *     answer read after it means the hand-over's grant
 */
public record Caller(
    Phase phase,
    long leaseUntil,
    long since,
    Operation pending,
    GiveUp giveUp,
    long trustUntil,
    boolean batched,
    boolean noticed) {

  static final long NEVER = Long.MIN_VALUE;

  /**
   * The store operations whose reply may be lost; a cancel only in a batch (a single cancel whose
   * reply is lost ends the wait all the same).
   */
  public enum Operation {
    ACQUIRE,
    POLL,
    CANCEL,
    RELEASE
  }

  static final Caller IDLE = new Caller(Phase.IDLE, 0, NEVER, null, null, 0, false, false);

  /** Queued by an acquire that first ran at {@code ranAt}. */
  static Caller queued(long ranAt, long lease) {
    return new Caller(Phase.WAITING, ranAt + lease, 0, null, null, ranAt + lease / 2, false, false);
  }

  /** Still waiting, its lease now known to run until {@code until}. */
  Caller waiting(long until) {
    return new Caller(Phase.WAITING, until, 0, null, null, trustUntil, false, false);
  }

  static Caller holding(long leaseUntil) {
    return new Caller(Phase.HOLDING, leaseUntil, 0, null, null, 0, false, false);
  }

  static Caller done(long at) {
    return new Caller(Phase.DONE, 0, at, null, null, 0, false, false);
  }

  Caller pending(Operation operation, long ranAt, GiveUp giveUp) {
    return new Caller(Phase.PENDING, leaseUntil, ranAt, operation, giveUp, 0, false, false);
  }

  /** Sent {@code operation} in a batch whose reply was lost; the batch holds the give-up. */
  Caller pendingInBatch(Operation operation, long ranAt) {
    return new Caller(Phase.PENDING, leaseUntil, ranAt, operation, null, trustUntil, true, false);
  }

  /**
   * Sent {@code operation} in a batch the store applied at {@code ranAt}, its reply not read yet.
   * An acquire's notices are trusted for half a lease from then, as once queued; a poll keeps the
   * waiter's window.
   */
  Caller sent(Operation operation, long ranAt, long lease) {
    long trust = operation == Operation.ACQUIRE ? ranAt + lease / 2 : trustUntil;
    return new Caller(Phase.SENT, leaseUntil, ranAt, operation, null, trust, false, false);
  }

  /**
   * Whether a hand-over notice reaching this caller at {@code now}, before the reply of its sent
   * acquire or poll, is kept as a grant (the engine's {@code GrantSignal}: registered before it
   * asked, judged by when the notice came). An untrusted one is forgotten: the waiter polls once it
   * reads a QUEUED answer.
   */
  boolean keepsNoticeAt(long now) {
    return phase == Phase.SENT
        && (pending == Operation.ACQUIRE || pending == Operation.POLL)
        && now < trustUntil;
  }

  /** A trusted notice came while its reply is awaited ({@link #keepsNoticeAt}). */
  Caller noticing() {
    return new Caller(phase, leaseUntil, since, pending, giveUp, trustUntil, batched, true);
  }

  /** Whether a hand-over notice reaching this caller at {@code now} is taken as a grant. */
  boolean trustsNoticeAt(long now) {
    return phase == Phase.WAITING && now < trustUntil;
  }

  boolean leaseLiveAt(long now) {
    return (phase == Phase.WAITING || phase == Phase.HOLDING) && leaseUntil > now;
  }

  /** Whether the caller still counts on the request: the store must keep what it was given. */
  boolean cares() {
    return phase == Phase.WAITING
        || phase == Phase.HOLDING
        || phase == Phase.PENDING
        || phase == Phase.SENT;
  }

  /** Times relative to {@code now}; whatever lies in the past is all one ("-"). */
  String canonical(long now, long lease) {
    return switch (phase) {
      case IDLE -> "I";
      case WAITING -> "W" + Times.ahead(leaseUntil, now) + "t" + Times.ahead(trustUntil, now);
      case HOLDING -> "H" + Times.ahead(leaseUntil, now);
      case SENT ->
          "S"
              + pending.name().charAt(0)
              + Times.ahead(leaseUntil, now)
              + "@"
              + Times.ahead(since + lease, now)
              + "t"
              + Times.ahead(trustUntil, now)
              + (noticed ? "n" : "");
      case PENDING ->
          "P"
              + pending.name().charAt(0)
              + Times.ahead(leaseUntil, now)
              + "@"
              + Times.ahead(since + lease, now)
              + (giveUp == null ? "" : "g")
              + (batched ? "b" + Times.ahead(trustUntil, now) : "");
      case DONE -> "D" + (since == NEVER ? "n" : Times.ahead(since + lease, now));
    };
  }
}
