package dev.bulwark.tck.modelcheck;

/** Where a request is, as its caller knows it. */
public enum Phase {
  /** Not yet asked for. */
  IDLE,
  /** Queued: waits for a wake-up, polls, or gives up (a time-out: cancel). */
  WAITING,
  /** Believes it holds the permit or the lock, and renews it while its JVM lives. */
  HOLDING,
  /**
   * Sent in a batch that the store applied and whose reply the JVM has not read yet (batches in
   * flight): waits for that reply, and sends nothing meanwhile.
   */
  SENT,
  /** Sent a call whose reply was lost: may re-send it, or give the request up. */
  PENDING,
  /** Released, rejected, cancelled, given up, told its lease was lost, or its JVM died. */
  DONE
}
