package dev.bulwark.tck.modelcheck;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The callers' side of one explored state: the clock, each request as its caller knows it, the JVMs
 * that died, the wake-ups each JVM has not yet received (in the order its channel delivers them),
 * the batches whose reply was lost and that are not yet re-sent or given up, the batches in flight
 * (applied, their replies not read yet, in the order sent), and what is left of the budget of rare
 * events. The store's side is in {@link StoreContents}. Immutable: every action makes a new one.
 */
public record ModelState(
    long now,
    List<Caller> callers,
    List<Boolean> dead,
    List<List<WakeUp>> inFlight,
    List<LostBatch> lostBatches,
    List<SentBatch> sentBatches,
    int ticksLeft,
    int deathsLeft,
    int lostRepliesLeft,
    int batchesLeft,
    long lastWrite,
    long lastFence) {

  public ModelState {
    callers = List.copyOf(callers);
    dead = List.copyOf(dead);
    inFlight = inFlight.stream().map(List::copyOf).toList();
    lostBatches = List.copyOf(lostBatches);
    sentBatches = List.copyOf(sentBatches);
  }

  public static ModelState initial(Bounds bounds, long now) {
    int jvms = bounds.jvms();
    return new ModelState(
        now,
        bounds.requests().stream().map(r -> Caller.IDLE).toList(),
        new ArrayList<>(Collections.nCopies(jvms, false)),
        new ArrayList<>(Collections.nCopies(jvms, List.<WakeUp>of())),
        List.of(),
        List.of(),
        bounds.ticks(),
        bounds.deaths(),
        bounds.lostReplies(),
        bounds.batches(),
        now,
        0);
  }

  Caller caller(int request) {
    return callers.get(request);
  }

  public boolean isDead(int jvm) {
    return dead.get(jvm);
  }

  ModelState with(int request, Caller caller) {
    List<Caller> next = new ArrayList<>(callers);
    next.set(request, caller);
    return new ModelState(
        now,
        next,
        dead,
        inFlight,
        lostBatches,
        sentBatches,
        ticksLeft,
        deathsLeft,
        lostRepliesLeft,
        batchesLeft,
        lastWrite,
        lastFence);
  }

  ModelState at(long instant, int ticksLeftAfter) {
    return new ModelState(
        instant,
        callers,
        dead,
        inFlight,
        lostBatches,
        sentBatches,
        ticksLeftAfter,
        deathsLeft,
        lostRepliesLeft,
        batchesLeft,
        lastWrite,
        lastFence);
  }

  ModelState losingAReply() {
    return new ModelState(
        now,
        callers,
        dead,
        inFlight,
        lostBatches,
        sentBatches,
        ticksLeft,
        deathsLeft,
        lostRepliesLeft - 1,
        batchesLeft,
        lastWrite,
        lastFence);
  }

  /** One batched step of the budget is spent. */
  ModelState batching() {
    return new ModelState(
        now,
        callers,
        dead,
        inFlight,
        lostBatches,
        sentBatches,
        ticksLeft,
        deathsLeft,
        lostRepliesLeft,
        batchesLeft - 1,
        lastWrite,
        lastFence);
  }

  /** A batch's reply was lost; its callers are made pending by the caller of this. */
  ModelState withLostBatch(LostBatch lost) {
    List<LostBatch> next = new ArrayList<>(lostBatches);
    next.add(lost);
    return withLostBatches(next);
  }

  /** The lost batch at {@code index} was re-sent or given up. */
  ModelState withoutLostBatch(int index) {
    List<LostBatch> next = new ArrayList<>(lostBatches);
    next.remove(index);
    return withLostBatches(next);
  }

  /** A batch was sent and applied: it is in flight, the newest of all. */
  ModelState withSentBatch(SentBatch batch) {
    List<SentBatch> next = new ArrayList<>(sentBatches);
    next.add(batch);
    return withBatches(lostBatches, next);
  }

  /** The batches {@code jvm} has in flight, oldest first. */
  List<SentBatch> sentBy(int jvm) {
    return sentBatches.stream().filter(batch -> batch.jvm() == jvm).toList();
  }

  /** The reply of {@code batch}, in flight, was read or lost: it is no longer in flight. */
  ModelState withoutSentBatch(SentBatch batch) {
    List<SentBatch> next = new ArrayList<>(sentBatches);
    next.remove(batch);
    return withBatches(lostBatches, next);
  }

  /**
   * The store or the clock changed since the lost batches ran (all but the last one, when {@code
   * butTheLastLost}: the step that lost it) and since the batches in flight were applied (all but
   * the newest, when {@code butTheLastSent}: the step that sent it): a re-send may now change
   * things.
   */
  ModelState lostBatchesTouched(boolean butTheLastLost, boolean butTheLastSent) {
    int count = butTheLastLost ? lostBatches.size() - 1 : lostBatches.size();
    List<LostBatch> next = new ArrayList<>(lostBatches);
    for (int i = 0; i < count; i++) {
      next.set(i, next.get(i).touched());
    }
    int sentCount = butTheLastSent ? sentBatches.size() - 1 : sentBatches.size();
    List<SentBatch> sentNext = new ArrayList<>(sentBatches);
    for (int i = 0; i < sentCount; i++) {
      sentNext.set(i, sentNext.get(i).touched());
    }
    return next.equals(lostBatches) && sentNext.equals(sentBatches)
        ? this
        : withBatches(next, sentNext);
  }

  private ModelState withLostBatches(List<LostBatch> next) {
    return withBatches(next, sentBatches);
  }

  private ModelState withBatches(List<LostBatch> lost, List<SentBatch> inFlightBatches) {
    return new ModelState(
        now,
        callers,
        dead,
        inFlight,
        lost,
        inFlightBatches,
        ticksLeft,
        deathsLeft,
        lostRepliesLeft,
        batchesLeft,
        lastWrite,
        lastFence);
  }

  /**
   * JVM {@code jvm} dies: its requests end where they are, it hears nothing any more, the batches
   * it lost the replies of are neither re-sent nor given up, and those in flight are never read.
   */
  ModelState dying(int jvm, Bounds bounds) {
    List<Caller> next = new ArrayList<>(callers);
    for (int r = 0; r < next.size(); r++) {
      if (bounds.requests().get(r).jvm() == jvm && next.get(r).phase() != Phase.DONE) {
        next.set(r, Caller.done(next.get(r).phase() == Phase.IDLE ? Caller.NEVER : now));
      }
    }
    List<Boolean> deadNext = new ArrayList<>(dead);
    deadNext.set(jvm, true);
    List<List<WakeUp>> flightNext = new ArrayList<>(inFlight);
    flightNext.set(jvm, List.of());
    return new ModelState(
        now,
        next,
        deadNext,
        flightNext,
        lostBatches.stream().filter(lost -> lost.jvm() != jvm).toList(),
        sentBatches.stream().filter(batch -> batch.jvm() != jvm).toList(),
        ticksLeft,
        deathsLeft - 1,
        lostRepliesLeft,
        batchesLeft,
        lastWrite,
        lastFence);
  }

  /** Wake-ups the scripts just sent; a dead JVM's are never heard. */
  ModelState sent(List<WakeUp> wakeUps, Bounds bounds) {
    if (wakeUps.isEmpty()) {
      return this;
    }
    List<List<WakeUp>> next = new ArrayList<>();
    for (List<WakeUp> queue : inFlight) {
      next.add(new ArrayList<>(queue));
    }
    for (WakeUp wakeUp : wakeUps) {
      int jvm = bounds.requests().get(wakeUp.request()).jvm();
      if (!dead.get(jvm)) {
        next.get(jvm).add(wakeUp);
      }
    }
    return withInFlight(next);
  }

  /** The first wake-up on its way to {@code jvm} arrives, or is lost: either way it is gone. */
  ModelState withoutFirstWakeUp(int jvm) {
    List<List<WakeUp>> next = new ArrayList<>(inFlight);
    next.set(jvm, inFlight.get(jvm).subList(1, inFlight.get(jvm).size()));
    return withInFlight(next);
  }

  private ModelState withInFlight(List<List<WakeUp>> next) {
    return new ModelState(
        now,
        callers,
        dead,
        next,
        lostBatches,
        sentBatches,
        ticksLeft,
        deathsLeft,
        lostRepliesLeft,
        batchesLeft,
        lastWrite,
        lastFence);
  }

  /**
   * After a step: when the store's keys were last written (or renewed: every key then lives at
   * least a lease longer) and the largest fencing token the lock key has granted.
   */
  ModelState afterStore(long written, long fence) {
    return new ModelState(
        now,
        callers,
        dead,
        inFlight,
        lostBatches,
        sentBatches,
        ticksLeft,
        deathsLeft,
        lostRepliesLeft,
        batchesLeft,
        written,
        fence);
  }

  /** Whether a lease has passed since the last write: a key may have expired since. */
  boolean keysMayExpire(Bounds bounds) {
    return lastWrite + bounds.leaseMillis() <= now;
  }

  /**
   * Everything but absolute time: two states with the same canonical form (and the same store
   * contents) have the same futures. Tokens in flight are compared relative to the clock too.
   */
  String canonical(Bounds bounds) {
    StringBuilder out = new StringBuilder();
    for (Caller caller : callers) {
      out.append(caller.canonical(now, bounds.leaseMillis())).append(',');
    }
    out.append('|');
    for (int jvm = 0; jvm < dead.size(); jvm++) {
      out.append(dead.get(jvm) ? 'x' : 'o');
      for (WakeUp wakeUp : inFlight.get(jvm)) {
        out.append(wakeUp.request()).append('~').append(wakeUp.token() == 0 ? 0 : 1);
      }
      out.append(';');
    }
    out.append('|');
    for (LostBatch lost : lostBatches) {
      out.append(lost.canonical(now, bounds.leaseMillis())).append(';');
    }
    out.append('|');
    for (SentBatch batch : sentBatches) {
      out.append(batch.canonical(now, bounds.leaseMillis())).append(';');
    }
    return out.append('|')
        .append(ticksLeft)
        .append(deathsLeft)
        .append(lostRepliesLeft)
        .append(batchesLeft)
        .toString();
  }
}
