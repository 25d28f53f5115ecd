package dev.bulwark.tck.modelcheck;

import java.util.List;

/**
 * What must hold after every step, judged on the callers' beliefs and the store's contents at the
 * store's clock. A lease counts while it runs on that clock; a caller may believe it holds after
 * its lease ran out (a renewer that fell behind), which only the fencing token can catch, so such a
 * caller is not counted.
 */
final class Invariants {

  private final Bounds bounds;
  private final StoreDriver store;

  Invariants(Bounds bounds, StoreDriver store) {
    this.bounds = bounds;
    this.store = store;
  }

  void check(ExploredState from, Action action, ExploredState to) {
    ModelState s = to.model();
    StoreContents c = to.store();
    long now = s.now();
    callersAtMostTheLimit(s);
    storeAtMostTheLimit(c, now);
    storeKeepsWhatCallersCountOn(s, c);
    nothingLiveThatNobodyWants(s, c, now);
    Action step = action instanceof Action.RenewDuring race ? race.step() : action;
    if (step instanceof Action.Acquire a) {
      newcomerPassesNoWaiter(from, a.request(), to);
    } else if (step instanceof Action.Resend resend) {
      newcomerPassesNoWaiter(from, resend.request(), to);
    } else if (step instanceof Action.Batch batch) {
      newcomersOf(batch.entries(), from, to);
    } else if (step instanceof Action.SendBatch send) {
      // judged on what the store answered, which the callers learn when they read the reply
      newcomersOf(send.entries(), from, Stepper.answeredAtOnce(from, send, bounds, to));
    } else if (step instanceof Action.ResendBatch resend) {
      newcomersOf(from.model().lostBatches().get(resend.lost()).entries(), from, to);
      resentBatchChangesNothing(from, resend, to);
    }
    if (action.handsOver(from, store)) {
      noRoomLeftWithWaiters(
          c, now, action.reclaims(from) || store.everyStepReclaims(), "after " + action);
    }
    fencingGrows(from, to);
  }

  /** Never more than the limit of callers hold with a live lease; a writer holds alone. */
  private void callersAtMostTheLimit(ModelState s) {
    int holders = 0;
    int writers = 0;
    for (int r = 0; r < s.callers().size(); r++) {
      Caller caller = s.caller(r);
      if (caller.phase() == Phase.HOLDING && caller.leaseUntil() > s.now()) {
        holders++;
        if (bounds.requests().get(r).kind() == Kind.WRITE) {
          writers++;
        }
      }
    }
    if (bounds.isLock()) {
      check(writers == 0 || holders == 1, "a writer holds beside %d other holders", holders - 1);
    } else {
      check(holders <= bounds.limit(), "%d callers hold permits of %d", holders, bounds.limit());
    }
  }

  private void storeAtMostTheLimit(StoreContents c, long now) {
    List<String> live = c.liveHolders(now);
    if (bounds.isLock()) {
      String writer = c.liveWriter(now);
      check(
          writer == null || live.isEmpty(),
          "the store has writer %s beside readers %s",
          writer,
          live);
      check(writer == null || kindOf(writer) == Kind.WRITE, "writer %s asked to read", writer);
      for (String reader : live) {
        check(kindOf(reader) == Kind.READ, "reader %s asked to write", reader);
      }
    } else {
      check(live.size() <= bounds.limit(), "the store has %d live holders: %s", live.size(), live);
    }
  }

  /** A caller holding or waiting with a live lease is known to the store, with that lease. */
  private void storeKeepsWhatCallersCountOn(ModelState s, StoreContents c) {
    for (int r = 0; r < s.callers().size(); r++) {
      Caller caller = s.caller(r);
      if (!caller.leaseLiveAt(s.now())) {
        continue;
      }
      String member = store.member(r);
      Long held = c.heldUntil(member);
      boolean holds = held != null && held >= caller.leaseUntil();
      if (caller.phase() == Phase.HOLDING) {
        check(holds, "request %d holds with a live lease but the store has %s", r + 1, held);
      } else {
        Long queued = c.waitingUntil(member);
        boolean waits =
            queued != null && queued >= caller.leaseUntil() && c.queue().contains(member);
        check(holds || waits, "request %d waits with a live lease but the store lost it", r + 1);
      }
    }
  }

  /**
   * Whatever the store keeps live belongs to a caller that still counts on it, or to one that
   * stopped (released, gave up, died) less than a lease ago and whose entry ends by then.
   */
  private void nothingLiveThatNobodyWants(ModelState s, StoreContents c, long now) {
    for (String member : c.liveHolders(now)) {
      ownedOrEnding(s, member, c.holders().get(member), "holds");
    }
    String writer = c.liveWriter(now);
    if (writer != null) {
      ownedOrEnding(s, writer, c.heldUntil(writer), "writes");
    }
    for (StoreContents.Waiter waiter : c.liveWaiters(now)) {
      ownedOrEnding(s, waiter.member(), c.waitingUntil(waiter.member()), "waits");
    }
  }

  private void ownedOrEnding(ModelState s, String member, long until, String what) {
    int r = store.requestOf(member);
    check(r >= 0, "unknown member %s %s", member, what);
    Caller caller = s.caller(r);
    if (caller.cares()) {
      return;
    }
    check(
        caller.since() != Caller.NEVER, "request %d %s in the store but never asked", r + 1, what);
    check(
        until <= caller.since() + bounds.leaseMillis(),
        "request %d %s until %d, more than a lease after its caller stopped at %d",
        r + 1,
        what,
        until,
        caller.since());
  }

  private void newcomersOf(List<BatchEntry> entries, ExploredState from, ExploredState to) {
    for (BatchEntry entry : entries) {
      if (entry.operation() == Caller.Operation.ACQUIRE) {
        newcomerPassesNoWaiter(from, entry.request(), to);
      }
    }
  }

  /**
   * A batch whose reply was lost after the store applied all of it, sent again before anything else
   * changed the store or the clock, changes nothing: every operation in it is idempotent.
   */
  private void resentBatchChangesNothing(
      ExploredState from, Action.ResendBatch resend, ExploredState to) {
    LostBatch lost = from.model().lostBatches().get(resend.lost());
    if (!lost.untouched()) {
      return;
    }
    check(
        to.store().canonical(to.model().now()).equals(from.store().canonical(from.model().now())),
        "re-sending batch %s changed the store: %s, was %s",
        lost.entries(),
        to.store().canonical(to.model().now()),
        from.store().canonical(from.model().now()));
  }

  /** A newcomer granted at once leaves no one who waited before it still waiting. */
  private void newcomerPassesNoWaiter(ExploredState from, int r, ExploredState to) {
    if (to.model().caller(r).phase() != Phase.HOLDING
        || from.model().caller(r).phase() == Phase.WAITING) {
      return;
    }
    String newcomer = store.member(r);
    if (from.store().heldUntil(newcomer) != null || from.store().waitingUntil(newcomer) != null) {
      return; // a re-sent acquire whose first run was granted or queued already
    }
    List<StoreContents.Waiter> stillWaiting = to.store().liveWaiters(to.model().now());
    for (StoreContents.Waiter before : from.store().liveWaiters(from.model().now())) {
      check(
          before.member().equals(newcomer) || !stillWaiting.contains(before),
          "newcomer %s was granted past waiter %s",
          newcomer,
          before.member());
    }
  }

  /**
   * After a script that hands over: no live waiter is left at the head of the queue while what it
   * waits for is free. Room that a lease's end made is only seen by a script that reclaims expired
   * holders, which a poll always does; other scripts reclaim only when they find no room, so after
   * them an expired holder still counts as taking room ({@code reclaimed} false). A store whose
   * every step reclaims ({@link StoreDriver#everyStepReclaims}, the JPA store) is held to the
   * stricter rule after every step.
   */
  void noRoomLeftWithWaiters(StoreContents c, long now, boolean reclaimed, String when) {
    List<StoreContents.Waiter> waiting = c.liveWaiters(now);
    if (waiting.isEmpty()) {
      return;
    }
    StoreContents.Waiter head = waiting.get(0);
    int taken = reclaimed ? c.liveHolders(now).size() : c.holders().size();
    if (bounds.isLock()) {
      boolean written = reclaimed ? c.liveWriter(now) != null : c.writer() != null;
      boolean blocked = written || (head.mode().equals("W") && taken > 0);
      check(
          blocked,
          "%s: waiter %s (%s) left queued on a free lock",
          when,
          head.member(),
          head.mode());
    } else {
      check(
          taken >= bounds.limit(),
          "%s: waiter %s left queued with %d of %d permits taken",
          when,
          head.member(),
          taken,
          bounds.limit());
    }
  }

  /**
   * Every new writer gets a token above every earlier one, also once the key's state expired (then
   * the clock, which only grows, carries the order).
   */
  private void fencingGrows(ExploredState from, ExploredState to) {
    String writer = to.store().writer();
    // a request id is granted at most once, so a writer other than the one before is a new grant
    if (writer == null || writer.equals(from.store().writer())) {
      return;
    }
    long before = from.model().lastFence();
    Long token = to.store().writerToken();
    check(
        token != null && token > before,
        "writer %s was granted token %s, not above %d",
        writer,
        token,
        before);
  }

  private Kind kindOf(String member) {
    int r = store.requestOf(member);
    return r < 0 ? null : bounds.requests().get(r).kind();
  }

  private static void check(boolean holds, String message, Object... args) {
    if (!holds) {
      throw new Violation(String.format(message, args));
    }
  }
}
