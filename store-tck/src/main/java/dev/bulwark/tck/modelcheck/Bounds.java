package dev.bulwark.tck.modelcheck;

import java.util.ArrayList;
import java.util.List;

/**
 * What one exploration covers: the requests (and so the JVMs), the bulkhead's limit (1 for a lock
 * key: one writer), the lease and the clock's step, and how many of the rarer events a sequence may
 * hold: clock steps, JVM deaths, lost replies, and batched steps (several requests of one JVM sent
 * as one store call; a batch whose reply is lost or whose JVM dies mid-batch counts as one, and
 * also as a lost reply or a death), and how many batches one JVM may have in flight at once ({@code
 * inFlight}: sent, applied by the store, their replies not read yet; 0: a batch is answered in the
 * step that sends it). {@code depth} bounds the length of a sequence.
 *
 * <p>The clock steps by more than half a lease: two steps without a renewal in between let a lease
 * run out, one step with a renewal before it does not.
 */
public record Bounds(
    String name,
    List<Request> requests,
    int limit,
    long leaseMillis,
    long tickMillis,
    int ticks,
    int deaths,
    int lostReplies,
    int batches,
    int inFlight,
    int depth) {

  /** Bounds whose batches are answered in the step that sends them: none in flight. */
  public Bounds(
      String name,
      List<Request> requests,
      int limit,
      long leaseMillis,
      long tickMillis,
      int ticks,
      int deaths,
      int lostReplies,
      int batches,
      int depth) {
    this(
        name,
        requests,
        limit,
        leaseMillis,
        tickMillis,
        ticks,
        deaths,
        lostReplies,
        batches,
        0,
        depth);
  }

  /** Bounds without batched steps: every operation is sent alone. */
  public Bounds(
      String name,
      List<Request> requests,
      int limit,
      long leaseMillis,
      long tickMillis,
      int ticks,
      int deaths,
      int lostReplies,
      int depth) {
    this(name, requests, limit, leaseMillis, tickMillis, ticks, deaths, lostReplies, 0, 0, depth);
  }

  public Bounds {
    requests = List.copyOf(requests);
    if (requests.stream().map(Request::kind).distinct().count() > 1
        && requests.stream().anyMatch(r -> r.kind() == Kind.PERMIT)) {
      throw new IllegalArgumentException("a scenario is a bulkhead's or a lock key's, not both");
    }
  }

  public boolean isLock() {
    return requests.get(0).kind() != Kind.PERMIT;
  }

  public int jvms() {
    return requests.stream().mapToInt(Request::jvm).max().orElse(-1) + 1;
  }

  /** {@code count} requests spread over {@code jvms} JVMs in turn, of the kinds given in turn. */
  public static List<Request> spread(int count, int jvms, Kind... kinds) {
    List<Request> requests = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      requests.add(new Request(i % jvms, kinds[i % kinds.length]));
    }
    return requests;
  }
}
