package dev.bulwark.tck.modelcheck;

import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Explores every interleaving of the enabled actions up to the depth bound, breadth first, against
 * the real store: each state's store contents are kept, and written back before each action tried
 * from it, so every transition runs the store's real code (a Redis script, a database transaction)
 * from exactly that state. States already seen (same canonical form, see {@link
 * ModelState#canonical} and {@link StoreContents#canonical}) are not explored again; breadth first
 * reaches each at its least depth, so nothing within the bound is cut. Every new state is also
 * driven to the end by {@link Quiescence}.
 */
public final class Explorer {

  /** The store's clock at the start: an arbitrary, realistic instant. */
  public static final long START_MILLIS = 1_700_000_000_000L;

  private final Bounds bounds;
  private final StoreDriver store;
  private final Stepper stepper;
  private final Quiescence quiescence;

  private final Map<String, Integer> ids = new HashMap<>();
  private final List<Integer> parent = new ArrayList<>();
  private final List<Action> via = new ArrayList<>();
  private final List<int[]> successors = new ArrayList<>();
  private final Map<String, Long> actionsRun = new TreeMap<>();
  private long transitions;
  private long finalCheckSteps;

  public Explorer(Bounds bounds, StoreDriver store) {
    this.bounds = bounds;
    this.store = store;
    this.stepper = new Stepper(bounds, store);
    this.quiescence = new Quiescence(bounds, new CountingStepper());
  }

  public Exploration explore() {
    long started = System.nanoTime();
    ExploredState initial =
        new ExploredState(ModelState.initial(bounds, START_MILLIS), store.empty());
    stepper.restore(initial);
    register(initial, -1, null);
    endCheck(initial, 0);
    List<ExploredState> level = List.of(initial);
    List<Integer> levelIds = List.of(0);
    for (int depth = 0; depth < bounds.depth() && !level.isEmpty(); depth++) {
      List<ExploredState> next = new ArrayList<>();
      List<Integer> nextIds = new ArrayList<>();
      for (int i = 0; i < level.size(); i++) {
        ExploredState from = level.get(i);
        int fromId = levelIds.get(i);
        List<Action> actions = Action.enabled(bounds, from, store);
        int[] succ = new int[actions.size()];
        for (int a = 0; a < actions.size(); a++) {
          Action action = actions.get(a);
          stepper.restore(from);
          ExploredState to;
          try {
            to = stepper.step(from, action);
          } catch (AssertionError | RuntimeException e) {
            throw failure(fromId, action, e, "");
          }
          transitions++;
          actionsRun.merge(kind(action), 1L, Long::sum);
          String key = key(to);
          Integer known = ids.get(key);
          if (known == null) {
            known = register(to, fromId, action);
            endCheck(to, known);
            next.add(to);
            nextIds.add(known);
          }
          succ[a] = known;
        }
        successors.set(fromId, succ);
      }
      level = next;
      levelIds = nextIds;
    }
    return new Exploration(
        bounds.name(),
        ids.size(),
        transitions,
        sequences(),
        bounds.depth(),
        finalCheckSteps,
        actionsRun,
        Duration.ofNanos(System.nanoTime() - started));
  }

  private int register(ExploredState step, int from, Action action) {
    int id = parent.size();
    ids.put(key(step), id);
    parent.add(from);
    via.add(action);
    successors.add(new int[0]);
    return id;
  }

  private void endCheck(ExploredState step, int id) {
    try {
      quiescence.check(step);
    } catch (AssertionError | RuntimeException e) {
      throw failure(id, null, e, "at the end of the sequence: ");
    }
  }

  private String key(ExploredState step) {
    return step.model().canonical(bounds) + "#" + step.store().canonical(step.model().now());
  }

  /** Sequences of 0..depth actions from the start, counted over the explored graph. */
  private BigInteger sequences() {
    Map<Integer, BigInteger> counts = Map.of(0, BigInteger.ONE);
    BigInteger total = BigInteger.ONE;
    for (int depth = 0; depth < bounds.depth(); depth++) {
      Map<Integer, BigInteger> next = new HashMap<>();
      for (Map.Entry<Integer, BigInteger> entry : counts.entrySet()) {
        for (int to : successors.get(entry.getKey())) {
          next.merge(to, entry.getValue(), BigInteger::add);
        }
      }
      for (BigInteger count : next.values()) {
        total = total.add(count);
      }
      counts = next;
    }
    return total;
  }

  /**
   * A broken invariant as a {@link Violation}; anything else (the server not answering in time) as
   * what it is, both naming the sequence that led there.
   */
  private AssertionError failure(int id, Action action, Throwable cause, String when) {
    LinkedList<String> path = new LinkedList<>();
    if (action != null) {
      path.addFirst(action.toString());
    }
    for (int at = id; parent.get(at) >= 0; at = parent.get(at)) {
      path.addFirst(via.get(at).toString());
    }
    String message =
        bounds.name() + ": " + when + cause.getMessage() + "\n  after: " + String.join(", ", path);
    return cause instanceof AssertionError
        ? new Violation(message, cause)
        : new AssertionError("not a violation, the check itself failed: " + message, cause);
  }

  private static String kind(Action action) {
    if (action instanceof Action.OwnWork work) {
      return work.work().replaceFirst(" ?\\(.*", "");
    }
    return action instanceof Action.LoseReply lost
        ? "lose-" + lost.operation().name().toLowerCase(Locale.ROOT)
        : action.getClass().getSimpleName().toLowerCase(Locale.ROOT);
  }

  /** Counts the end check's steps into the figures. */
  private final class CountingStepper extends Stepper {
    CountingStepper() {
      super(bounds, store);
    }

    @Override
    public ExploredState step(ExploredState from, Action action) {
      finalCheckSteps++;
      return super.step(from, action);
    }
  }
}
