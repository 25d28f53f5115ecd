package dev.bulwark.tck.modelcheck;

import java.util.List;

/**
 * Takes one step: runs the action against the store (which must be in {@code from}'s state), reads
 * the store's contents and the wake-ups sent, and checks every invariant on the result; for a
 * batch, first runs its operations one at a time from the same state, and requires the batch to
 * decide the same.
 */
public class Stepper {

  private final Bounds bounds;
  private final StoreDriver store;
  private final Invariants invariants;

  public Stepper(Bounds bounds, StoreDriver store) {
    this.bounds = bounds;
    this.store = store;
    this.invariants = new Invariants(bounds, store);
  }

  /** Puts the store in {@code step}'s state. */
  public void restore(ExploredState step) {
    store.restore(step.store(), step.model().now());
  }

  public ExploredState step(ExploredState from, Action action) {
    List<BatchEntry> applied =
        action instanceof Action.Batch batch
            ? batch.entries()
            : action instanceof Action.SendBatch send ? send.entries() : null;
    ExploredState oneAtATime = applied == null ? null : oneAtATime(from, applied);
    ModelState model = action.apply(store, bounds, from.model());
    StoreContents contents = store.read();
    model = model.sent(store.wakeUps(contents), bounds);
    // a script that writes keeps the keys it writes alive for a lease; a renewal keeps them alive
    // without changing them; a key's own expiry writes nothing
    boolean written =
        action instanceof Action.Renew
            || action instanceof Action.RenewDuring
            || (!(action instanceof Action.KeyExpires) && !contents.sameKeys(from.store()));
    // a batch whose reply was lost, re-sent before anything else changed, must change nothing
    if (model.now() != from.model().now()
        || action instanceof Action.Renew
        || !contents.sameKeys(from.store())) {
      model =
          model.lostBatchesTouched(
              action instanceof Action.LoseBatchReply, action instanceof Action.SendBatch);
    }
    Long fence = contents.fence();
    model =
        model.afterStore(
            written ? model.now() : model.lastWrite(),
            fence == null ? model.lastFence() : Math.max(fence, model.lastFence()));
    ExploredState to = new ExploredState(model, contents);
    try {
      invariants.check(from, action, to);
      if (oneAtATime != null) {
        sameAsOneAtATime(action, oneAtATime, answeredAtOnce(from, action, to));
      }
    } catch (Violation e) {
      throw new Violation(
          e.getMessage()
              + "\n  store before: "
              + from.store().canonical(from.model().now())
              + "\n  store after:  "
              + contents.canonical(model.now())
              + "\n  callers after: "
              + model.canonical(bounds),
          e);
    }
    return to;
  }

  /**
   * The batch's operations sent one at a time, in its order, from {@code from} (the store must be
   * in that state, and is put back in it): what the callers learn and what the store keeps.
   */
  private ExploredState oneAtATime(ExploredState from, List<BatchEntry> entries) {
    ModelState model = from.model();
    for (BatchEntry entry : entries) {
      int r = entry.request();
      Action single =
          switch (entry.operation()) {
            case ACQUIRE -> new Action.Acquire(r);
            case POLL -> new Action.Poll(r);
            case CANCEL -> new Action.Cancel(r);
            case RELEASE -> new Action.Release(r);
          };
      model = single.apply(store, bounds, model);
    }
    StoreContents contents = store.read();
    restore(from);
    return new ExploredState(model, contents);
  }

  /**
   * The step {@code to} as its batch's callers learn it: for a batch sent in flight, what its
   * reply, once read, will tell them (read at once, before anything else happened).
   */
  static ExploredState answeredAtOnce(
      ExploredState from, Action action, Bounds bounds, ExploredState to) {
    if (!(action instanceof Action.SendBatch send)) {
      return to;
    }
    List<SentBatch> sent = to.model().sentBatches();
    SentBatch batch = sent.get(sent.size() - 1);
    return new ExploredState(
        Action.answered(from.model(), send.entries(), batch.answers(), from.model().now(), bounds),
        to.store());
  }

  private ExploredState answeredAtOnce(ExploredState from, Action action, ExploredState to) {
    return answeredAtOnce(from, action, bounds, to);
  }

  /**
   * A batch decides exactly as its operations sent one at a time in its order: every caller learns
   * the same, and the store keeps the same (as its canonical form tells states apart).
   */
  private void sameAsOneAtATime(Action action, ExploredState single, ExploredState batched) {
    long now = batched.model().now();
    if (!single.model().callers().equals(batched.model().callers())) {
      throw new Violation(
          action
              + " answered unlike its operations sent one at a time: callers "
              + batched.model().canonical(bounds)
              + ", one at a time "
              + single.model().canonical(bounds));
    }
    String batchedStore = batched.store().canonical(now);
    String singleStore = single.store().canonical(now);
    if (!batchedStore.equals(singleStore)) {
      throw new Violation(
          action
              + " left the store unlike its operations sent one at a time: "
              + batchedStore
              + ", one at a time "
              + singleStore);
    }
  }

  Invariants invariants() {
    return invariants;
  }
}
