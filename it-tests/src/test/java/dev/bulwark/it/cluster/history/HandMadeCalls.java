package dev.bulwark.it.cluster.history;

import java.util.ArrayList;
import java.util.List;

/**
 * Hand-made calls for the history checker's tests, instants in plain numbers: each call gets a
 * thread of its own, so its id is unique.
 */
public final class HandMadeCalls {

  private final List<CallRecord> calls = new ArrayList<>();

  /** A call granted at some point of [request, enter] and released in [exit, returned]. */
  public CallRecord granted(
      String worker, String kind, String key, long request, long enter, long exit, long returned) {
    return add(worker, kind, key, request, enter, exit, returned, CallRecord.OK, 0);
  }

  public CallRecord bulkhead(long enter, long exit) {
    return granted("w0", "BULKHEAD", "-", enter - 1, enter, exit, exit + 1);
  }

  public CallRecord bulkhead(String worker, long enter, long exit) {
    return granted(worker, "BULKHEAD", "-", enter - 1, enter, exit, exit + 1);
  }

  public CallRecord lock(String mode, String key, long enter, long exit) {
    return granted("w0", mode, key, enter - 1, enter, exit, exit + 1);
  }

  public CallRecord write(String key, long request, long enter, long exit, long token) {
    return add("w0", "WRITE", key, request, enter, exit, exit + 1, CallRecord.OK, token);
  }

  /** A call inside when its JVM died: no exit, no return. */
  public CallRecord unended(String kind, String key, long request, long enter, long token) {
    return add("victim", kind, key, request, enter, 0, 0, CallRecord.INSIDE, token);
  }

  public CallRecord rejected(String kind, long request, long returned) {
    return add("w0", kind, "-", request, 0, returned, returned, "BulkheadFullException", 0);
  }

  /** A rate grant: granted at some point of [request, enter]. */
  public CallRecord rate(long request, long enter) {
    return add("w0", "RATE", "-", request, enter, enter, enter + 1, CallRecord.OK, 0);
  }

  public CallRecord add(
      String worker,
      String kind,
      String key,
      long request,
      long enter,
      long exit,
      long returned,
      String outcome,
      long token) {
    CallRecord call =
        new CallRecord(
            worker, calls.size(), 0, kind, key, request, enter, exit, returned, outcome, token);
    calls.add(call);
    return call;
  }

  public History history() {
    return History.of(calls);
  }

  public List<CallRecord> calls() {
    return calls;
  }
}
