package dev.bulwark.tck.modelcheck;

import java.util.ArrayList;
import java.util.List;

/**
 * The end of an explored sequence: nobody may be stuck. The replies of batches in flight are read;
 * calls and batches whose reply was lost are given up, the clock passes every lease while the
 * surviving JVMs renew (what dead JVMs held runs out), then in rounds every surviving waiter polls
 * — wake-ups still in flight are taken as lost, so waiters learn only by polling — and the holders
 * release. A waiter left queued after its round must find what it waits for held by a live caller;
 * once everyone is done, the store keeps nothing live.
 */
final class Quiescence {

  private final Bounds bounds;
  private final Stepper stepper;

  Quiescence(Bounds bounds, Stepper stepper) {
    this.bounds = bounds;
    this.stepper = stepper;
  }

  /** Drives the store from {@code start} (which it must be in) to the end, checking as it goes. */
  void check(ExploredState start) {
    ExploredState at = start;
    while (!at.model().sentBatches().isEmpty()) {
      at = stepper.step(at, new Action.ReadBatchReply(at.model().sentBatches().get(0).jvm()));
    }
    while (!at.model().lostBatches().isEmpty()) {
      at = stepper.step(at, new Action.GiveUpBatch(0));
    }
    for (int r = 0; r < bounds.requests().size(); r++) {
      if (at.model().caller(r).phase() == Phase.PENDING) {
        at = stepper.step(at, new Action.GiveUpRequest(r));
      }
    }
    // two half-lease steps, the survivors renewing before each: only the dead lose their leases
    for (int half = 0; half < 2; half++) {
      at = renewAll(at);
      at = stepper.step(at, new Action.HalfALease());
    }
    for (int round = 0; round <= bounds.requests().size(); round++) {
      for (int r : inPhase(at.model(), Phase.WAITING)) {
        at = stepper.step(at, new Action.Poll(r));
      }
      if (!inPhase(at.model(), Phase.WAITING).isEmpty()) {
        stepper
            .invariants()
            .noRoomLeftWithWaiters(at.store(), at.model().now(), true, "final polls");
      }
      List<Integer> holding = inPhase(at.model(), Phase.HOLDING);
      if (holding.isEmpty() && inPhase(at.model(), Phase.WAITING).isEmpty()) {
        break;
      }
      for (int r : holding) {
        at = stepper.step(at, new Action.Release(r));
      }
    }
    long now = at.model().now();
    List<Integer> unfinished = new ArrayList<>(inPhase(at.model(), Phase.WAITING));
    unfinished.addAll(inPhase(at.model(), Phase.HOLDING));
    if (!unfinished.isEmpty()) {
      throw new Violation("requests (0-based) " + unfinished + " never finished");
    }
    StoreContents left = at.store();
    if (!left.liveHolders(now).isEmpty()
        || left.liveWriter(now) != null
        || !left.liveWaiters(now).isEmpty()) {
      throw new Violation("the store keeps live entries nobody wants: " + left);
    }
  }

  private ExploredState renewAll(ExploredState at) {
    for (int jvm = 0; jvm < bounds.jvms(); jvm++) {
      if (!at.model().isDead(jvm) && !Action.renewable(bounds, at.model(), jvm).isEmpty()) {
        at = stepper.step(at, new Action.Renew(jvm));
      }
    }
    return at;
  }

  private List<Integer> inPhase(ModelState s, Phase phase) {
    List<Integer> found = new ArrayList<>();
    for (int r = 0; r < s.callers().size(); r++) {
      if (s.caller(r).phase() == phase && !s.isDead(bounds.requests().get(r).jvm())) {
        found.add(r);
      }
    }
    return found;
  }
}
