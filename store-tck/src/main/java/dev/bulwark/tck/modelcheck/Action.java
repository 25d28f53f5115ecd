package dev.bulwark.tck.modelcheck;

import dev.bulwark.spi.Grant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One step of the system: a caller's store operation, a JVM's renewal, the clock stepping, a
 * wake-up arriving or being lost, a JVM dying, a reply lost and the call re-sent or given up; and
 * the same for a batch, several requests' operations of one JVM sent as one store call. Each runs
 * the store's own code through the {@link StoreDriver} and says what its caller learns; a reply the
 * store may never give (a live request forgotten) is a {@link Violation} at once.
 */
public sealed interface Action {

  /** Runs the step; the store's contents are read (and checked) after it by {@link Stepper}. */
  ModelState apply(StoreDriver store, Bounds bounds, ModelState s);

  /**
   * Whether the step, taken from {@code from}, runs a script that decides hand-overs (and so must
   * leave none undone): not a release of what the store no longer has, nor a give-up without a
   * script.
   */
  default boolean handsOver(ExploredState from, StoreDriver store) {
    return false;
  }

  /** Whether the step's script always drops expired holders first (a poll's does). */
  default boolean reclaims(ExploredState from) {
    return false;
  }

  /** The actions enabled in {@code at}, in a fixed order. */
  static List<Action> enabled(Bounds bounds, ExploredState at, StoreDriver store) {
    ModelState s = at.model();
    List<Action> actions = new ArrayList<>();
    boolean mayLose = s.lostRepliesLeft() > 0;
    for (int r = 0; r < s.callers().size(); r++) {
      if (s.isDead(bounds.requests().get(r).jvm())) {
        continue;
      }
      switch (s.caller(r).phase()) {
        case IDLE -> {
          actions.add(new Acquire(r));
          if (mayLose) {
            actions.add(new LoseReply(r, Caller.Operation.ACQUIRE));
          }
        }
        case WAITING -> {
          actions.add(new Poll(r));
          actions.add(new Cancel(r));
          if (mayLose) {
            actions.add(new LoseReply(r, Caller.Operation.POLL));
          }
        }
        case HOLDING -> {
          actions.add(new Release(r));
          if (mayLose) {
            actions.add(new LoseReply(r, Caller.Operation.RELEASE));
          }
        }
        case PENDING -> {
          if (s.caller(r).batched()) {
            continue; // the batch's re-send or give-up, below
          }
          if (store.resendsLostCalls()) {
            actions.add(new Resend(r));
          }
          actions.add(new GiveUpRequest(r));
        }
        case SENT, DONE -> {} // a sent caller waits for its batch's reply
      }
    }
    List<Action> steps = List.copyOf(actions);
    for (int jvm = 0; jvm < s.dead().size(); jvm++) {
      if (s.isDead(jvm)) {
        continue;
      }
      if (!renewable(bounds, s, jvm).isEmpty()) {
        actions.add(new Renew(jvm));
        if (store.renewsDuringSteps()) {
          for (Action step : steps) {
            if (RenewDuring.races(step, jvm, bounds)) {
              actions.add(new RenewDuring(jvm, step));
            }
          }
        }
      }
      if (!s.inFlight().get(jvm).isEmpty()) {
        actions.add(new Deliver(jvm));
        actions.add(new Drop(jvm));
      }
      if (s.deathsLeft() > 0) {
        actions.add(new Die(jvm));
      }
    }
    boolean pipelined = bounds.inFlight() > 0;
    if (s.batchesLeft() > 0 && pipelined) {
      // sending and reading the reply are steps of their own: a batch answered at once, lost, or
      // its JVM dying once it was applied are those steps back to back, so not tried as one step
      for (int jvm = 0; jvm < s.dead().size(); jvm++) {
        if (!s.isDead(jvm) && s.sentBy(jvm).size() < bounds.inFlight()) {
          for (List<BatchEntry> entries : BatchChoices.of(bounds, s, jvm, 1)) {
            actions.add(new SendBatch(entries));
          }
        }
      }
    }
    for (int jvm = 0; jvm < s.dead().size(); jvm++) {
      int sent = s.isDead(jvm) ? 0 : s.sentBy(jvm).size();
      if (sent > 0) {
        actions.add(new ReadBatchReply(jvm));
        if (mayLose) {
          actions.add(new LoseOldestBatchReply(jvm));
          if (sent > 1) {
            actions.add(new ResetConnection(jvm));
          }
        }
      }
    }
    if (s.batchesLeft() > 0 && !pipelined) {
      for (int jvm = 0; jvm < s.dead().size(); jvm++) {
        if (s.isDead(jvm)) {
          continue;
        }
        for (List<BatchEntry> entries : BatchChoices.of(bounds, s, jvm)) {
          actions.add(new Batch(entries));
          if (mayLose) {
            int batchSteps = store.batchSteps(entries);
            for (int step = 1; step <= batchSteps; step++) {
              actions.add(new LoseBatchReply(entries, step, batchSteps));
            }
          }
          if (s.deathsLeft() > 0) {
            actions.add(new DieMidBatch(entries));
          }
        }
      }
    }
    for (int lost = 0; lost < s.lostBatches().size(); lost++) {
      actions.add(new ResendBatch(lost));
      actions.add(new GiveUpBatch(lost));
    }
    if (s.ticksLeft() > 0) {
      actions.add(new Tick(bounds.tickMillis()));
    }
    if (s.keysMayExpire(bounds)) {
      for (String structure : at.store().present()) {
        actions.add(new KeyExpires(structure));
      }
    }
    for (String work : store.ownWork(at)) {
      actions.add(new OwnWork(work));
    }
    return actions;
  }

  /** The requests of {@code jvm} its renewer renews: those waiting or holding. */
  static List<Integer> renewable(Bounds bounds, ModelState s, int jvm) {
    List<Integer> requests = new ArrayList<>();
    for (int r = 0; r < s.callers().size(); r++) {
      Phase phase = s.caller(r).phase();
      if (bounds.requests().get(r).jvm() == jvm
          && (phase == Phase.WAITING || phase == Phase.HOLDING)) {
        requests.add(r);
      }
    }
    return requests;
  }

  /** What a caller learns from an acquire that ran at {@code ranAt}. */
  private static ModelState acquired(ModelState s, int r, Grant grant, long ranAt, Bounds bounds) {
    return switch (grant.outcome()) {
      case GRANTED -> s.with(r, Caller.holding(ranAt + bounds.leaseMillis()));
      case QUEUED -> s.with(r, Caller.queued(ranAt, bounds.leaseMillis()));
      case REJECTED -> s.with(r, Caller.done(s.now()));
    };
  }

  /** What a waiter learns from a poll; it may not be told "unknown" while its lease runs. */
  private static ModelState polled(ModelState s, int r, Grant grant, long leaseUntil) {
    return switch (grant.outcome()) {
      case GRANTED -> s.with(r, Caller.holding(leaseUntil));
      case QUEUED -> s.with(r, s.caller(r).waiting(leaseUntil));
      case REJECTED -> {
        if (leaseUntil > s.now()) {
          throw new Violation(
              "poll of request " + (r + 1) + " answered unknown while its lease runs");
        }
        yield s.with(r, Caller.done(s.now()));
      }
    };
  }

  /** What a waiter learns from a cancel: it keeps a grant that won the race. */
  private static ModelState cancelled(ModelState s, int r, Grant grant, long leaseUntil) {
    return grant.isGranted()
        ? s.with(r, Caller.holding(leaseUntil))
        : s.with(r, Caller.done(s.now()));
  }

  private static ModelState released(ModelState s, int r, boolean released, long leaseUntil) {
    if (!released && leaseUntil > s.now()) {
      throw new Violation("release of request " + (r + 1) + " found nothing while its lease runs");
    }
    return s.with(r, Caller.done(s.now()));
  }

  /** Takes a permit or the lock, queueing when it must. */
  record Acquire(int request) implements Action {
    @Override
    public ModelState apply(StoreDriver store, Bounds bounds, ModelState s) {
      return acquired(s, request, store.acquire(request), s.now(), bounds);
    }

    @Override
    public boolean handsOver(ExploredState from, StoreDriver store) {
      return true;
    }

    @Override
    public String toString() {
      return "acquire(" + (request + 1) + ")";
    }
  }

  /** A waiter asks whether it was granted (it may have missed its wake-up). */
  record Poll(int request) implements Action {
    @Override
    public ModelState apply(StoreDriver store, Bounds bounds, ModelState s) {
      return polled(s, request, store.poll(request), s.caller(request).leaseUntil());
    }

    @Override
    public boolean handsOver(ExploredState from, StoreDriver store) {
      return true;
    }

    @Override
    public boolean reclaims(ExploredState from) {
      return true;
    }

    @Override
    public String toString() {
      return "poll(" + (request + 1) + ")";
    }
  }

  /** A waiter gives up (its time-out); it keeps a grant that won the race. */
  record Cancel(int request) implements Action {
    @Override
    public ModelState apply(StoreDriver store, Bounds bounds, ModelState s) {
      return cancelled(s, request, store.cancel(request), s.caller(request).leaseUntil());
    }

    @Override
    public boolean handsOver(ExploredState from, StoreDriver store) {
      return true;
    }

    @Override
    public String toString() {
      return "cancel(" + (request + 1) + ")";
    }
  }

  record Release(int request) implements Action {
    @Override
    public ModelState apply(StoreDriver store, Bounds bounds, ModelState s) {
      return released(s, request, store.release(request), s.caller(request).leaseUntil());
    }

    @Override
    public boolean handsOver(ExploredState from, StoreDriver store) {
      return from.store().heldUntil(store.member(request)) != null;
    }

    @Override
    public String toString() {
      return "release(" + (request + 1) + ")";
    }
  }

  /** The call runs but its reply is lost; the store's give-up is held back. */
  record LoseReply(int request, Caller.Operation operation) implements Action {
    @Override
    public ModelState apply(StoreDriver store, Bounds bounds, ModelState s) {
      GiveUp giveUp = store.losingReply(request, operation).orElse(null);
      return s.losingAReply().with(request, s.caller(request).pending(operation, s.now(), giveUp));
    }

    @Override
    public String toString() {
      return operation.name().toLowerCase(Locale.ROOT) + "(" + (request + 1) + ") reply lost";
    }
  }

  /**
   * The call whose reply was lost is sent again (as a Cluster client does), and answered, however
   * late: a re-sent acquire that comes after the first run's queue entry was handed a permit and
   * lost it to its lease is queued afresh, while that hand-over's wake-up is still on its way
   * ({@code ReplayedFaultsTest}).
   */
  record Resend(int request) implements Action {
    @Override
    public ModelState apply(StoreDriver store, Bounds bounds, ModelState s) {
      Caller caller = s.caller(request);
      return switch (caller.pending()) {
        case ACQUIRE -> acquired(s, request, store.acquire(request), caller.since(), bounds);
        case POLL -> polled(s, request, store.poll(request), caller.leaseUntil());
        case RELEASE -> {
          store.release(request); // the first one ran: this one finds nothing, as it should
          yield s.with(request, Caller.done(s.now()));
        }
        case CANCEL -> throw new IllegalStateException("a single cancel is never re-sent");
      };
    }

    @Override
    public boolean handsOver(ExploredState from, StoreDriver store) {
      return from.model().caller(request).pending() != Caller.Operation.RELEASE;
    }

    @Override
    public boolean reclaims(ExploredState from) {
      return from.model().caller(request).pending() == Caller.Operation.POLL;
    }

    @Override
    public String toString() {
      return "resend(" + (request + 1) + ")";
    }
  }

  /**
   * The store's give-up after a lost reply runs (a release's loss has none: the caller moves on).
   */
  record GiveUpRequest(int request) implements Action {
    @Override
    public ModelState apply(StoreDriver store, Bounds bounds, ModelState s) {
      GiveUp giveUp = s.caller(request).giveUp();
      if (giveUp != null) {
        store.giveUp(request, giveUp);
      }
      return s.with(request, Caller.done(s.now()));
    }

    @Override
    public boolean handsOver(ExploredState from, StoreDriver store) {
      return from.model().caller(request).giveUp() != null;
    }

    @Override
    public String toString() {
      return "give-up(" + (request + 1) + ")";
    }
  }

  /** A JVM's renewer extends the leases of all its waiting and holding requests, in one batch. */
  record Renew(int jvm) implements Action {
    @Override
    public ModelState apply(StoreDriver store, Bounds bounds, ModelState s) {
      List<Integer> requests = renewable(bounds, s, jvm);
      return renewed(s, requests, store.renew(jvm, requests), bounds);
    }

    /**
     * What the renewal of {@code requests} tells their callers in {@code s}, of which {@code lost}
     * were reported lost.
     */
    static ModelState renewed(
        ModelState s, List<Integer> requests, List<Integer> lost, Bounds bounds) {
      ModelState next = s;
      for (int r : requests) {
        Caller caller = s.caller(r);
        if (lost.contains(r)) {
          if (caller.leaseUntil() > s.now()) {
            throw new Violation(
                "renewal reported request " + (r + 1) + " lost while its lease runs");
          }
          next = next.with(r, Caller.done(s.now()));
        } else {
          long until = s.now() + bounds.leaseMillis();
          next =
              next.with(
                  r,
                  caller.phase() == Phase.HOLDING ? Caller.holding(until) : caller.waiting(until));
        }
      }
      return next;
    }

    @Override
    public String toString() {
      return "renew(jvm " + jvm + ")";
    }
  }

  /**
   * A JVM's renewal racing a step of another JVM's request: the renewal commits after the step has
   * read the store and before the step writes, or after the step when it writes nothing ({@link
   * StoreDriver#renewingDuring}). The store must come out of it as if the renewal had run first: a
   * step decides on what it read, so a write that finds a row changed since (a lease the renewal
   * extended) must not land, and the step runs again on what the renewal wrote. The callers learn
   * what the renewal tells the renewing JVM's requests and what the step tells its own request,
   * which the renewal leaves alone; the invariants after it catch a step that undid the renewal (a
   * renewed holder deleted as expired, so that two hold a bulkhead of one, or a renewed lease
   * written back to its old end).
   */
  record RenewDuring(int jvm, Action step) implements Action {

    /** Whether {@code step} is a store operation of a request of a JVM other than {@code jvm}. */
    static boolean races(Action step, int jvm, Bounds bounds) {
      int request;
      if (step instanceof Acquire acquire) {
        request = acquire.request();
      } else if (step instanceof Poll poll) {
        request = poll.request();
      } else if (step instanceof Cancel cancel) {
        request = cancel.request();
      } else if (step instanceof Release release) {
        request = release.request();
      } else {
        return false;
      }
      return bounds.requests().get(request).jvm() != jvm;
    }

    @Override
    public ModelState apply(StoreDriver store, Bounds bounds, ModelState s) {
      List<Integer> requests = renewable(bounds, s, jvm);
      List<ModelState> stepped = new ArrayList<>(1);
      List<Integer> lost =
          store.renewingDuring(jvm, requests, () -> stepped.add(step.apply(store, bounds, s)));
      return Renew.renewed(stepped.get(0), requests, lost, bounds);
    }

    @Override
    public boolean handsOver(ExploredState from, StoreDriver store) {
      return step.handsOver(from, store);
    }

    @Override
    public boolean reclaims(ExploredState from) {
      return step.reclaims(from);
    }

    @Override
    public String toString() {
      return "renew(jvm " + jvm + ") during " + step;
    }
  }

  /**
   * The first wake-up on its way to the JVM arrives; a waiter it names holds when it may trust the
   * notice ({@link Caller#trustsNoticeAt}). Otherwise the waiter forgets it and polls: that poll is
   * the {@link Poll} every waiter may take next. A caller whose acquire or poll is in flight keeps
   * a notice it trusts until it reads the reply ({@link Caller#keepsNoticeAt}).
   */
  record Deliver(int jvm) implements Action {
    @Override
    public ModelState apply(StoreDriver store, Bounds bounds, ModelState s) {
      WakeUp wakeUp = s.inFlight().get(jvm).get(0);
      ModelState next = s.withoutFirstWakeUp(jvm);
      Caller caller = s.caller(wakeUp.request());
      if (caller.keepsNoticeAt(s.now())) {
        return next.with(wakeUp.request(), caller.noticing());
      }
      return caller.trustsNoticeAt(s.now())
          ? next.with(wakeUp.request(), Caller.holding(caller.leaseUntil()))
          : next;
    }

    @Override
    public String toString() {
      return "deliver(jvm " + jvm + ")";
    }
  }

  /** The first wake-up on its way to the JVM is lost; the waiter must learn by polling. */
  record Drop(int jvm) implements Action {
    @Override
    public ModelState apply(StoreDriver store, Bounds bounds, ModelState s) {
      return s.withoutFirstWakeUp(jvm);
    }

    @Override
    public String toString() {
      return "drop(jvm " + jvm + ")";
    }
  }

  /** A JVM dies: its requests stop renewing and are never released or cancelled. */
  record Die(int jvm) implements Action {
    @Override
    public ModelState apply(StoreDriver store, Bounds bounds, ModelState s) {
      return s.dying(jvm, bounds);
    }

    @Override
    public String toString() {
      return "die(jvm " + jvm + ")";
    }
  }

  /**
   * One of the store's keys expires on its own. A script that writes a key keeps it alive for at
   * least a lease (a renewal, every key of the lease), so once a lease has passed since the last
   * write any key may be gone before the next script runs, and every lease in it has ended.
   */
  record KeyExpires(String structure) implements Action {
    @Override
    public ModelState apply(StoreDriver store, Bounds bounds, ModelState s) {
      store.expire(structure);
      return s;
    }

    @Override
    public String toString() {
      return "expire(" + structure + ")";
    }
  }

  /** The store does work of its own: a cleanup task, a JVM's look for hand-overs. */
  record OwnWork(String work) implements Action {
    @Override
    public ModelState apply(StoreDriver store, Bounds bounds, ModelState s) {
      store.runOwnWork(work);
      return s;
    }

    @Override
    public String toString() {
      return work;
    }
  }

  /** The store's clock steps ahead. */
  record Tick(long millis) implements Action {
    @Override
    public ModelState apply(StoreDriver store, Bounds bounds, ModelState s) {
      store.setClock(s.now() + millis);
      return s.at(s.now() + millis, s.ticksLeft() - 1);
    }

    @Override
    public String toString() {
      return "tick(+" + millis + " ms)";
    }
  }

  /**
   * The clock steps by just over half a lease, outside the budget: only the final check uses it,
   * twice, to pass every lease not renewed in between.
   */
  record HalfALease() implements Action {
    @Override
    public ModelState apply(StoreDriver store, Bounds bounds, ModelState s) {
      long next = s.now() + bounds.leaseMillis() / 2 + 1;
      store.setClock(next);
      return s.at(next, s.ticksLeft());
    }

    @Override
    public String toString() {
      return "half a lease";
    }
  }

  /** Whether a batch, taken from {@code from}, runs a step that decides hand-overs. */
  private static boolean batchHandsOver(
      List<BatchEntry> entries, ExploredState from, StoreDriver store) {
    for (BatchEntry entry : entries) {
      if (entry.operation() != Caller.Operation.RELEASE
          || from.store().heldUntil(store.member(entry.request())) != null) {
        return true;
      }
    }
    return false;
  }

  /** Whether a batch holds a poll, whose step always drops expired holders first. */
  private static boolean batchReclaims(List<BatchEntry> entries) {
    return entries.stream().anyMatch(e -> e.operation() == Caller.Operation.POLL);
  }

  private static int jvmOf(List<BatchEntry> entries, Bounds bounds) {
    return bounds.requests().get(entries.get(0).request()).jvm();
  }

  /**
   * What the callers of a batch the store applied at {@code ranAt} learn from its answers, each as
   * from the single call. A caller that kept a trusted notice while its batch was in flight ({@link
   * Caller#noticed}) and reads QUEUED holds: the engine finds the notice once it starts to wait.
   */
  static ModelState answered(
      ModelState s, List<BatchEntry> entries, List<Grant> answers, long ranAt, Bounds bounds) {
    ModelState next = s;
    for (int i = 0; i < entries.size(); i++) {
      int r = entries.get(i).request();
      Grant grant = answers.get(i);
      Caller caller = s.caller(r);
      next =
          switch (entries.get(i).operation()) {
            case ACQUIRE -> acquired(next, r, grant, ranAt, bounds);
            case POLL -> polled(next, r, grant, caller.leaseUntil());
            case CANCEL -> cancelled(next, r, grant, caller.leaseUntil());
            case RELEASE -> released(next, r, grant.isGranted(), caller.leaseUntil());
          };
      Caller learnt = next.caller(r);
      if (caller.noticed() && learnt.phase() == Phase.WAITING) {
        next = next.with(r, Caller.holding(learnt.leaseUntil()));
      }
    }
    return next;
  }

  /**
   * Several requests of one JVM sent as one batch (the engine's batch queue): the store applies
   * them one by one in this order, and each caller learns its answer as it would from the single
   * call.
   */
  record Batch(List<BatchEntry> entries) implements Action {
    public Batch {
      entries = List.copyOf(entries);
    }

    @Override
    public ModelState apply(StoreDriver store, Bounds bounds, ModelState s) {
      return answered(s.batching(), entries, store.apply(entries), s.now(), bounds);
    }

    @Override
    public boolean handsOver(ExploredState from, StoreDriver store) {
      return batchHandsOver(entries, from, store);
    }

    @Override
    public boolean reclaims(ExploredState from) {
      return batchReclaims(entries);
    }

    @Override
    public String toString() {
      return "batch" + entries;
    }
  }

  /**
   * A batch runs but the reply of one of its steps is lost: the steps before it answered, it ran,
   * later ones were never sent, and every caller of the batch hears a failure. The store's give-up
   * (if it sends one) is held back; the batch is then re-sent whole ({@link ResendBatch}) or given
   * up ({@link GiveUpBatch}).
   *
   * @param step the step whose reply is lost, 1-based
   * @param steps how many steps the store's batch call makes for these entries
   */
  record LoseBatchReply(List<BatchEntry> entries, int step, int steps) implements Action {
    public LoseBatchReply {
      entries = List.copyOf(entries);
    }

    @Override
    public ModelState apply(StoreDriver store, Bounds bounds, ModelState s) {
      GiveUp giveUp = store.applyLosingReply(entries, step).orElse(null);
      ModelState next = s.losingAReply().batching();
      for (BatchEntry entry : entries) {
        next =
            next.with(
                entry.request(),
                s.caller(entry.request()).pendingInBatch(entry.operation(), s.now()));
      }
      boolean whole = step == steps;
      return next.withLostBatch(
          new LostBatch(jvmOf(entries, bounds), entries, s.now(), giveUp, whole, whole));
    }

    @Override
    public String toString() {
      return "batch"
          + entries
          + (steps == 1 ? " reply lost" : " reply of step " + step + "/" + steps + " lost");
    }
  }

  /**
   * A batch whose reply was lost is sent again, whole, and answered, however late. Sent again
   * before anything else changed the store or the clock, it must change nothing.
   */
  record ResendBatch(int lost) implements Action {
    @Override
    public ModelState apply(StoreDriver store, Bounds bounds, ModelState s) {
      LostBatch batch = s.lostBatches().get(lost);
      List<Grant> answers = store.apply(batch.entries());
      ModelState next = s.withoutLostBatch(lost);
      for (int i = 0; i < batch.entries().size(); i++) {
        int r = batch.entries().get(i).request();
        Grant grant = answers.get(i);
        Caller caller = s.caller(r);
        next =
            switch (batch.entries().get(i).operation()) {
              case ACQUIRE -> acquired(next, r, grant, caller.since(), bounds);
              case POLL -> polled(next, r, grant, caller.leaseUntil());
              case CANCEL -> cancelled(next, r, grant, caller.leaseUntil());
              // the first one ran (when the loss was of the last step): this one may find nothing
              case RELEASE -> next.with(r, Caller.done(s.now()));
            };
      }
      return next;
    }

    @Override
    public boolean handsOver(ExploredState from, StoreDriver store) {
      return from.model().lostBatches().get(lost).entries().stream()
          .anyMatch(e -> e.operation() != Caller.Operation.RELEASE);
    }

    @Override
    public boolean reclaims(ExploredState from) {
      return batchReclaims(from.model().lostBatches().get(lost).entries());
    }

    @Override
    public String toString() {
      return "resend(lost batch " + (lost + 1) + ")";
    }
  }

  /**
   * A batch whose reply was lost is given up: the store's give-up runs, if it sends one, and every
   * caller of the batch is done (the engine reports the failure to each).
   */
  record GiveUpBatch(int lost) implements Action {
    @Override
    public ModelState apply(StoreDriver store, Bounds bounds, ModelState s) {
      LostBatch batch = s.lostBatches().get(lost);
      if (batch.giveUp() != null) {
        store.giveUp(batch.entries().get(0).request(), batch.giveUp());
      }
      ModelState next = s.withoutLostBatch(lost);
      for (BatchEntry entry : batch.entries()) {
        next = next.with(entry.request(), Caller.done(s.now()));
      }
      return next;
    }

    @Override
    public boolean handsOver(ExploredState from, StoreDriver store) {
      return from.model().lostBatches().get(lost).giveUp() != null;
    }

    @Override
    public String toString() {
      return "give-up(lost batch " + (lost + 1) + ")";
    }
  }

  /**
   * The store applies a batch and its JVM dies before it acts on the answers: every request of the
   * batch asked, and none is released, cancelled or renewed any more.
   */
  record DieMidBatch(List<BatchEntry> entries) implements Action {
    public DieMidBatch {
      entries = List.copyOf(entries);
    }

    @Override
    public ModelState apply(StoreDriver store, Bounds bounds, ModelState s) {
      store.apply(entries);
      ModelState next = s.batching();
      for (BatchEntry entry : entries) {
        // it asked: what the store gave it must end within a lease from now
        next = next.with(entry.request(), Caller.done(s.now()));
      }
      return next.dying(jvmOf(entries, bounds), bounds);
    }

    @Override
    public boolean handsOver(ExploredState from, StoreDriver store) {
      return batchHandsOver(entries, from, store);
    }

    @Override
    public boolean reclaims(ExploredState from) {
      return batchReclaims(entries);
    }

    @Override
    public String toString() {
      return "batch" + entries + ", then its JVM dies";
    }
  }

  /**
   * A JVM sends a batch and the store applies it, but its reply is not read yet: the engine
   * pipelines up to a few batches of one limit from one JVM, each sent before the reply of the one
   * before is read. Its callers wait for that reply ({@link ReadBatchReply}); other steps, of this
   * JVM's other callers too, may come between. The answers are judged here, when the store gave
   * them: a reply it may never give is a violation at once.
   */
  record SendBatch(List<BatchEntry> entries) implements Action {
    public SendBatch {
      entries = List.copyOf(entries);
    }

    @Override
    public ModelState apply(StoreDriver store, Bounds bounds, ModelState s) {
      List<Grant> answers = store.apply(entries);
      answered(s, entries, answers, s.now(), bounds); // throws for an answer never to be given
      ModelState next = s.batching();
      for (BatchEntry entry : entries) {
        int r = entry.request();
        next = next.with(r, s.caller(r).sent(entry.operation(), s.now(), bounds.leaseMillis()));
      }
      return next.withSentBatch(
          new SentBatch(jvmOf(entries, bounds), entries, answers, s.now(), true));
    }

    @Override
    public boolean handsOver(ExploredState from, StoreDriver store) {
      return batchHandsOver(entries, from, store);
    }

    @Override
    public boolean reclaims(ExploredState from) {
      return batchReclaims(entries);
    }

    @Override
    public String toString() {
      return "send batch" + entries;
    }
  }

  /**
   * A JVM reads the reply of its oldest batch in flight (replies come in the order sent): each
   * caller learns its answer as from the single call.
   */
  record ReadBatchReply(int jvm) implements Action {
    @Override
    public ModelState apply(StoreDriver store, Bounds bounds, ModelState s) {
      SentBatch batch = s.sentBy(jvm).get(0);
      return answered(
          s.withoutSentBatch(batch), batch.entries(), batch.answers(), batch.ranAt(), bounds);
    }

    @Override
    public String toString() {
      return "read reply(jvm " + jvm + ")";
    }
  }

  /**
   * The reply of a JVM's oldest batch in flight is lost (the store applied it whole): its callers
   * hear a failure, and the batch is then re-sent or given up ({@link LostBatch}), as a batch whose
   * reply was lost in the step that sent it. The later batches' replies still come.
   */
  record LoseOldestBatchReply(int jvm) implements Action {
    @Override
    public ModelState apply(StoreDriver store, Bounds bounds, ModelState s) {
      return lost(store, s.losingAReply(), s.sentBy(jvm).get(0));
    }

    /** {@code batch}, in flight, lost its reply: its callers are pending on the lost batch. */
    static ModelState lost(StoreDriver store, ModelState s, SentBatch batch) {
      GiveUp giveUp = store.giveUpAfterLosing(batch.entries()).orElse(null);
      ModelState next = s.withoutSentBatch(batch);
      for (BatchEntry entry : batch.entries()) {
        next =
            next.with(
                entry.request(),
                s.caller(entry.request()).pendingInBatch(entry.operation(), batch.ranAt()));
      }
      return next.withLostBatch(
          new LostBatch(
              batch.jvm(), batch.entries(), batch.ranAt(), giveUp, true, batch.untouched()));
    }

    @Override
    public String toString() {
      return "oldest batch reply lost(jvm " + jvm + ")";
    }
  }

  /**
   * A JVM's connection is reset with several batches in flight: every one of them loses its reply
   * at once (one lost-reply event), each then re-sent or given up on its own.
   */
  record ResetConnection(int jvm) implements Action {
    @Override
    public ModelState apply(StoreDriver store, Bounds bounds, ModelState s) {
      ModelState next = s.losingAReply();
      for (SentBatch batch : s.sentBy(jvm)) {
        next = LoseOldestBatchReply.lost(store, next, batch);
      }
      return next;
    }

    @Override
    public String toString() {
      return "connection reset(jvm " + jvm + ")";
    }
  }
}
