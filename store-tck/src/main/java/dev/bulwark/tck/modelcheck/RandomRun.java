package dev.bulwark.tck.modelcheck;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * Schedules beyond the exhaustive bounds: from the start, a seeded random choice among the enabled
 * actions for a number of steps, every invariant checked after each, then the end check. The same
 * seed replays the same schedule against the same scripts; a failure names it.
 */
public final class RandomRun {

  private final Bounds bounds;
  private final StoreDriver store;

  public RandomRun(Bounds bounds, StoreDriver store) {
    this.bounds = bounds;
    this.store = store;
  }

  /**
   * Runs {@code runs} schedules of up to {@code steps} steps, their seeds following one base seed:
   * {@code bulwark-modelcheck.seed} when set (one run, to replay a failure), else a fresh one,
   * printed with the figures. Returns how many steps ran in all.
   */
  public long runSeeded(int runs, int steps) {
    Long replay = Long.getLong("bulwark-modelcheck.seed");
    long base = replay != null ? replay : new SecureRandom().nextLong();
    int count = replay != null ? 1 : runs;
    long started = System.nanoTime();
    long total = 0;
    for (int n = 0; n < count; n++) {
      total += run(base + n, steps);
    }
    System.out.printf(
        "model check: %s: %d random schedules, %,d steps, seeds %d.., %d s%n",
        bounds.name(),
        count,
        total,
        base,
        Duration.ofNanos(System.nanoTime() - started).toSeconds());
    return total;
  }

  /**
   * One of {@code enabled}, each single action as likely as the others, and the batches one JVM may
   * send (sent, sent in flight, lost, or its JVM dying) as likely together as one single action:
   * there are many more of them, and they would crowd everything else out of a schedule.
   */
  private Action pick(List<Action> enabled, Random random) {
    List<Action> singles = new ArrayList<>();
    Map<Integer, List<Action>> batchesByJvm = new TreeMap<>();
    for (Action action : enabled) {
      List<BatchEntry> entries =
          action instanceof Action.Batch b
              ? b.entries()
              : action instanceof Action.LoseBatchReply l
                  ? l.entries()
                  : action instanceof Action.DieMidBatch d
                      ? d.entries()
                      : action instanceof Action.SendBatch send ? send.entries() : null;
      if (entries == null) {
        singles.add(action);
      } else {
        int jvm = bounds.requests().get(entries.get(0).request()).jvm();
        batchesByJvm.computeIfAbsent(jvm, j -> new ArrayList<>()).add(action);
      }
    }
    int choice = random.nextInt(singles.size() + batchesByJvm.size());
    if (choice < singles.size()) {
      return singles.get(choice);
    }
    List<Action> ofJvm = new ArrayList<>(batchesByJvm.values()).get(choice - singles.size());
    return ofJvm.get(random.nextInt(ofJvm.size()));
  }

  /** Runs one schedule of at most {@code steps} actions; returns how many ran. */
  public int run(long seed, int steps) {
    Random random = new Random(seed);
    Stepper stepper = new Stepper(bounds, store);
    ExploredState at =
        new ExploredState(ModelState.initial(bounds, Explorer.START_MILLIS), store.empty());
    stepper.restore(at);
    List<String> schedule = new ArrayList<>();
    try {
      for (int i = 0; i < steps; i++) {
        List<Action> enabled = Action.enabled(bounds, at, store);
        if (enabled.isEmpty()) {
          break;
        }
        Action action = pick(enabled, random);
        schedule.add(action.toString());
        at = stepper.step(at, action);
      }
      schedule.add("end check");
      new Quiescence(bounds, stepper).check(at);
      return schedule.size() - 1;
    } catch (AssertionError | RuntimeException e) {
      String message =
          bounds.name()
              + ", seed "
              + seed
              + " (replay with -Dbulwark-modelcheck.seed="
              + seed
              + "): "
              + e.getMessage()
              + "\n  after: "
              + String.join(", ", schedule);
      throw e instanceof AssertionError
          ? new Violation(message, e)
          : new AssertionError("not a violation, the check itself failed: " + message, e);
    }
  }
}
