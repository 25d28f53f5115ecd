package dev.bulwark.it.cluster.history;

/**
 * One call a worker made, as written to its event file and to the run's {@link History}: when it
 * was requested, when the guarded body started and ended, when the guarded method returned (all
 * {@link System#nanoTime()}, which on Linux is CLOCK_MONOTONIC and so comparable across the JVMs of
 * one host), how it ended and the fencing token it held.
 *
 * <p>The body records its entry after the grant and its exit before the release, so a recorded
 * interval always lies inside the permit's real one: two recorded intervals that overlap prove two
 * permits were held at once. The store's grant lies somewhere in [request, enter], its release in
 * [exit, return]: that is all the records know of them (no store tells its caller when, on its own
 * clock, it granted).
 *
 * @param worker the worker JVM's name
 * @param thread the caller thread's index in the worker
 * @param seq the call's index on its thread
 * @param kind {@code BULKHEAD}, {@code RATE}, {@code READ} or {@code WRITE}
 * @param key the lock key, {@code -} for the other kinds
 * @param requestNanos just before the guarded method was called
 * @param enterNanos when the body started; 0 if the call never entered
 * @param exitNanos when the body ended, or when the call was rejected; 0 while still inside
 * @param returnNanos when the guarded method returned or threw (after the release); 0 while still
 *     inside
 * @param outcome {@link #OK}, {@link #INSIDE} (entered, no end recorded: the JVM died), or the
 *     simple name of the exception the call ended with
 * @param token the fencing token the body read (write locks), else 0
 */
public record CallRecord(
    String worker,
    int thread,
    int seq,
    String kind,
    String key,
    long requestNanos,
    long enterNanos,
    long exitNanos,
    long returnNanos,
    String outcome,
    long token) {

  public static final String OK = "OK";
  public static final String INSIDE = "INSIDE";

  /** A line of the event file: an entry is written at once, the whole call when it ends. */
  public static final String ENTER_LINE = "ENTER";

  public static final String CALL_LINE = "CALL";

  public boolean entered() {
    return enterNanos != 0;
  }

  /** Whether the call's end was recorded: false for a call whose JVM died while it was inside. */
  public boolean ended() {
    return exitNanos != 0;
  }

  public boolean completed() {
    return OK.equals(outcome);
  }

  public boolean rejectedWith(String exception) {
    return exception.equals(outcome);
  }

  /** Identifies the call across its ENTER and CALL lines. */
  public String callId() {
    return worker + "/" + thread + "/" + seq;
  }

  public String toLine(String lineKind) {
    return String.join(
        "\t",
        lineKind,
        worker,
        String.valueOf(thread),
        String.valueOf(seq),
        kind,
        key,
        String.valueOf(requestNanos),
        String.valueOf(enterNanos),
        String.valueOf(exitNanos),
        outcome,
        String.valueOf(token),
        String.valueOf(returnNanos));
  }

  public static CallRecord fromFields(String[] f) {
    return new CallRecord(
        f[1],
        Integer.parseInt(f[2]),
        Integer.parseInt(f[3]),
        f[4],
        f[5],
        Long.parseLong(f[6]),
        Long.parseLong(f[7]),
        Long.parseLong(f[8]),
        Long.parseLong(f[11]),
        f[9],
        Long.parseLong(f[10]));
  }

  @Override
  public String toString() {
    return toLine(CALL_LINE);
  }
}
