package dev.bulwark.tck.modelcheck;

import java.util.ArrayList;
import java.util.List;

/**
 * The batches a JVM may send from one state: two or more of its live requests, at most {@link
 * #MAX_SIZE}, in every order (the order in which their callers reached the batch queue, which the
 * store keeps), each with one operation its caller may send now: an acquire while idle, a poll or a
 * cancel while waiting, a release while holding. One operation per request: a caller waits for its
 * answer before it sends the next (a caller whose batch is in flight is in none). A batch sent in
 * flight may also hold one request: the engine pipelines batches of any size.
 */
final class BatchChoices {

  /** The largest batch tried: the scenarios give a JVM at most three requests. */
  static final int MAX_SIZE = 3;

  private BatchChoices() {}

  static List<List<BatchEntry>> of(Bounds bounds, ModelState s, int jvm) {
    return of(bounds, s, jvm, 2);
  }

  /** The batches of {@code minSize} to {@link #MAX_SIZE} requests. */
  static List<List<BatchEntry>> of(Bounds bounds, ModelState s, int jvm, int minSize) {
    List<List<BatchEntry>> options = new ArrayList<>();
    for (int r = 0; r < s.callers().size(); r++) {
      if (bounds.requests().get(r).jvm() != jvm) {
        continue;
      }
      List<BatchEntry> ofRequest = new ArrayList<>();
      switch (s.caller(r).phase()) {
        case IDLE -> ofRequest.add(new BatchEntry(r, Caller.Operation.ACQUIRE));
        case WAITING -> {
          ofRequest.add(new BatchEntry(r, Caller.Operation.POLL));
          ofRequest.add(new BatchEntry(r, Caller.Operation.CANCEL));
        }
        case HOLDING -> ofRequest.add(new BatchEntry(r, Caller.Operation.RELEASE));
        case SENT, PENDING, DONE -> {}
      }
      if (!ofRequest.isEmpty()) {
        options.add(ofRequest);
      }
    }
    List<List<BatchEntry>> batches = new ArrayList<>();
    extend(options, minSize, new ArrayList<>(), new boolean[options.size()], batches);
    return batches;
  }

  /** Every ordered choice of distinct requests of size {@code min} to {@link #MAX_SIZE}. */
  private static void extend(
      List<List<BatchEntry>> options,
      int min,
      List<BatchEntry> prefix,
      boolean[] used,
      List<List<BatchEntry>> out) {
    if (prefix.size() >= min) {
      out.add(List.copyOf(prefix));
    }
    if (prefix.size() == MAX_SIZE) {
      return;
    }
    for (int i = 0; i < options.size(); i++) {
      if (used[i]) {
        continue;
      }
      used[i] = true;
      for (BatchEntry entry : options.get(i)) {
        prefix.add(entry);
        extend(options, min, prefix, used, out);
        prefix.remove(prefix.size() - 1);
      }
      used[i] = false;
    }
  }
}
