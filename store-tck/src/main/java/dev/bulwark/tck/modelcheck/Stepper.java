package dev.bulwark.tck.modelcheck;

/**
 * Takes one step: runs the action against the store (which must be in {@code from}'s state), reads
 * the store's contents and the wake-ups sent, and checks every invariant on the result.
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
  public void restore(Step step) {
    store.restore(step.store(), step.model().now());
  }

  public Step step(Step from, Action action) {
    ModelState model = action.apply(store, bounds, from.model());
    StoreContents contents = store.read();
    model = model.sent(store.wakeUps(contents), bounds);
    // a script that writes keeps the keys it writes alive for a lease; a renewal keeps them alive
    // without changing them; a key's own expiry writes nothing
    boolean written =
        action instanceof Action.Renew
            || (!(action instanceof Action.KeyExpires) && !contents.sameKeys(from.store()));
    // a batch whose reply was lost, re-sent before anything else changed, must change nothing
    if (model.now() != from.model().now()
        || action instanceof Action.Renew
        || !contents.sameKeys(from.store())) {
      model = model.lostBatchesTouched(action instanceof Action.LoseBatchReply);
    }
    Long fence = contents.fence();
    model =
        model.afterStore(
            written ? model.now() : model.lastWrite(),
            fence == null ? model.lastFence() : Math.max(fence, model.lastFence()));
    Step to = new Step(model, contents);
    try {
      invariants.check(from, action, to);
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

  Invariants invariants() {
    return invariants;
  }
}
