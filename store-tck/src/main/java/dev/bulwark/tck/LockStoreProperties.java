package dev.bulwark.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.LockKeySnapshot;
import dev.bulwark.LockMode;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.LockStore;
import dev.bulwark.spi.Operation;
import dev.bulwark.spi.Outcome;
import dev.bulwark.tck.model.Caller;
import dev.bulwark.tck.model.LockModel;
import dev.bulwark.tck.property.Action;
import dev.bulwark.tck.property.ActionChain;
import dev.bulwark.tck.property.ChainStep;
import dev.bulwark.tck.property.Gen;
import dev.bulwark.tck.property.Property;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@link LockStore} against {@link LockModel}: random sequences of read and write acquires (failing
 * fast or queueing), poll, cancel, release and repeated release on two keys, from callers in every
 * simulated JVM. Every answer, every hand-over each JVM hears and the operator's view after every
 * step must be the model's; a write grant's fencing token exceeds every token given on its key
 * before, and a reader carries a token no lower than the key's last write.
 *
 * <p>A batch action sends 2 to 8 of those operations, on either key, from one JVM through {@link
 * LockStore#apply}: each answer and token must be the one the model gives stepped through them one
 * by one in order (a release's: {@link Outcome#GRANTED} when it released, {@link Outcome#REJECTED}
 * when not held), and so must the hand-overs heard after it, in order per key (a store may tell a
 * JVM of hand-overs on different keys in any order). A caller appears at most once in a batch, as
 * in the engine's (an operation on a request waits for the answer to the one before).
 *
 * <p>An action names its caller by the order of its acquire within the run ("request 3"), not by
 * its request id, so that a shrunk sequence replays: a step whose caller is not in the state the
 * step needs (an earlier step was shrunk away) does nothing.
 */
public abstract class LockStoreProperties extends StoreProperties {

  private static final List<String> KEYS = List.of("a", "b");

  /** Mostly one key, so that queues grow; the other shows that keys are independent. */
  private static final Gen<String> KEY =
      Gen.frequency(Gen.Weighted.value(5, KEYS.get(0)), Gen.Weighted.value(1, KEYS.get(1)));

  private static final Gen<Boolean> MAY_QUEUE =
      Gen.frequency(Gen.Weighted.value(3, true), Gen.Weighted.value(1, false));

  @Test
  public void aKeyedLockAnswersAsItsModel() {
    Property.forAll(
        tries(),
        lockRuns(),
        chain ->
            chain
                .withInvariant("the store's holders and queues are the model's", Run::checkView)
                .run());
  }

  Gen<ActionChain<Run>> lockRuns() {
    return ActionChain.<Run>startWith(Run::new)
        .withAction(5, new Acquire())
        .withAction(2, onCaller("poll", LockModel::waitingOrGranted, Run::poll))
        .withAction(2, onCaller("cancel", LockModel::waitingOrGranted, Run::cancel))
        .withAction(4, onCaller("release", LockModel::holders, Run::release))
        .withAction(1, onCaller("release again", (model, key) -> model.gone(), Run::release))
        .withAction(3, new Batch())
        .withMaxSteps(30);
  }

  /** One try: a lock name of its own, the model beside it, and the tokens seen per key. */
  final class Run {
    private final LockSpec spec = new LockSpec(freshName("lock"), LEASE_MILLIS);
    private final LockModel model = new LockModel();
    private final Map<String, Long> highestToken = new HashMap<>();
    private final Map<String, Long> lastWriteToken = new HashMap<>();
    private final Map<Caller, Long> tokenOf = new HashMap<>();
    private final List<Caller> callers = new ArrayList<>();
    private final List<String> keyOf = new ArrayList<>();

    Run() {
      forgetHandOvers();
    }

    /** The ordinals (1, 2, …) of the callers of this run that {@code which} lists for their key. */
    List<Integer> ordinals(BiFunction<LockModel, String, List<Caller>> which) {
      return IntStream.rangeClosed(1, callers.size())
          .filter(n -> which.apply(model, keyOf.get(n - 1)).contains(callers.get(n - 1)))
          .boxed()
          .toList();
    }

    private LockStore store(Caller caller) {
      return jvms().get(caller.jvm()).locks();
    }

    void acquire(int jvm, String key, LockMode mode, boolean mayQueue) {
      Caller caller = new Caller(jvm, jvms().get(jvm).newRequestId());
      callers.add(caller);
      keyOf.add(key);
      String before = model.toString();
      Grant grant = store(caller).acquire(spec, key, mode, caller.requestId(), mayQueue);
      assertThat(grant.outcome())
          .as("%s acquire of %s by %s (may queue: %s) on %s", mode, key, caller, mayQueue, before)
          .isEqualTo(model.acquire(key, caller, mode, mayQueue));
      if (grant.isGranted()) {
        checkToken(key, caller, mode, grant.fencingToken());
      }
    }

    void poll(String key, Caller caller) {
      Grant grant = store(caller).poll(spec, key, caller.requestId());
      Outcome expected = model.poll(key, caller);
      assertThat(grant.outcome())
          .as("poll of %s for %s on %s", caller, key, model)
          .isEqualTo(expected);
      if (expected == Outcome.GRANTED) {
        assertThat(grant.fencingToken())
            .as("the token a poll of %s gives, as it was handed over", caller)
            .isEqualTo(tokenOf.get(caller));
      }
    }

    void cancel(String key, Caller caller) {
      String before = model.toString();
      Grant grant = store(caller).cancel(spec, key, caller.requestId());
      LockModel.Step expected = model.cancel(key, caller);
      checkHandOvers(key, expected.granted(), "cancel of " + caller + " on " + before);
      assertThat(grant.outcome())
          .as("cancel of %s for %s on %s", caller, key, before)
          .isEqualTo(expected.outcome());
      if (expected.outcome() == Outcome.GRANTED) {
        assertThat(grant.fencingToken())
            .as("the token a cancel after the hand-over gives %s", caller)
            .isEqualTo(tokenOf.get(caller));
      }
    }

    void release(String key, Caller caller) {
      String before = model.toString();
      boolean held = store(caller).release(spec, key, caller.requestId());
      LockModel.Step expected = model.release(key, caller);
      checkHandOvers(key, expected.granted(), "release of " + caller + " on " + before);
      assertThat(held)
          .as("release of %s for %s on %s", caller, key, before)
          .isEqualTo(expected.outcome() == Outcome.GRANTED);
    }

    /**
     * Sends the operations {@code plan} describes from JVM {@code jvm} as one batch; a planned step
     * on a caller that is not in the state it needs (shrunk away), not of this JVM or already in
     * this batch is left out.
     */
    void batch(int jvm, List<Planned> plan) {
      List<Operation> operations = new ArrayList<>();
      List<Caller> subjects = new ArrayList<>();
      Set<Integer> inBatch = new HashSet<>();
      for (Planned planned : plan) {
        if (planned.kind() == PlannedKind.ACQUIRE) {
          Caller caller = new Caller(jvm, jvms().get(jvm).newRequestId());
          callers.add(caller);
          keyOf.add(planned.key());
          subjects.add(caller);
          operations.add(
              Operation.acquire(
                  planned.key(), planned.mode(), caller.requestId(), planned.mayQueue()));
        } else if (ordinals(jvm, planned.kind().which).contains(planned.ordinal())
            && inBatch.add(planned.ordinal())) {
          Caller caller = callers.get(planned.ordinal() - 1);
          subjects.add(caller);
          operations.add(
              planned.kind().operation(keyOf.get(planned.ordinal() - 1), caller.requestId()));
        }
      }
      if (operations.isEmpty()) {
        return;
      }
      String before = model.toString();
      List<Grant> answers = jvms().get(jvm).locks().apply(spec, operations);
      assertThat(answers).as("answers to %s on %s", operations, before).hasSize(operations.size());
      Property.collect("lock batch operations sent", operations.size());
      List<List<HandOver>> heard = new ArrayList<>();
      Map<Caller, Long> heardToken = new HashMap<>();
      for (int j = 0; j < jvms().size(); j++) {
        heard.add(newHandOversOnce(j));
        for (HandOver handOver : heard.get(j)) {
          heardToken.putIfAbsent(new Caller(j, handOver.requestId()), handOver.fencingToken());
        }
      }
      List<LockModel.Grantee> granted = new ArrayList<>();
      for (int i = 0; i < operations.size(); i++) {
        Operation op = operations.get(i);
        Caller caller = subjects.get(i);
        Grant answer = answers.get(i);
        String what =
            op.kind()
                + " of "
                + caller
                + " for "
                + op.key()
                + ", operation "
                + (i + 1)
                + " of "
                + operations
                + ", on "
                + model;
        List<LockModel.Grantee> letIn = List.of();
        Outcome expected;
        switch (op.kind()) {
          case ACQUIRE -> expected = model.acquire(op.key(), caller, op.mode(), op.mayQueue());
          case POLL -> expected = model.poll(op.key(), caller);
          case CANCEL -> {
            LockModel.Step step = model.cancel(op.key(), caller);
            expected = step.outcome();
            letIn = step.granted();
          }
          case RELEASE -> {
            LockModel.Step step = model.release(op.key(), caller);
            expected = step.outcome();
            letIn = step.granted();
          }
          default -> throw new IllegalStateException(op.kind().name());
        }
        assertThat(answer.outcome()).as(what).isEqualTo(expected);
        if (op.kind() == Operation.Kind.ACQUIRE && answer.isGranted()) {
          checkToken(op.key(), caller, op.mode(), answer.fencingToken());
        } else if (op.kind() != Operation.Kind.RELEASE && answer.isGranted()) {
          assertThat(answer.fencingToken())
              .as("the token %s gives, as it was handed over", what)
              .isEqualTo(tokenOf.get(caller));
        }
        for (LockModel.Grantee grantee : letIn) {
          Long token = heardToken.get(grantee.caller());
          assertThat(token)
              .as("a hand-over heard by %s after %s", grantee.caller(), what)
              .isNotNull();
          checkToken(op.key(), grantee.caller(), grantee.mode(), token);
        }
        granted.addAll(letIn);
      }
      // in order per key; keys never decide each other, so a store may tell another JVM of
      // hand-overs on different keys in any order
      for (int j = 0; j < jvms().size(); j++) {
        int jvmIndex = j;
        assertThat(byKey(heard.get(j).stream().map(h -> new Caller(jvmIndex, h.requestId()))))
            .as(
                "hand-overs heard by jvm%s, per key, after batch %s of jvm%s on %s",
                j, operations, jvm, before)
            .isEqualTo(
                byKey(
                    granted.stream()
                        .map(LockModel.Grantee::caller)
                        .filter(c -> c.jvm() == jvmIndex)));
      }
    }

    /** {@code callers} by the key each asked for (in the order of the stream per key). */
    private Map<String, List<Long>> byKey(Stream<Caller> callers) {
      Map<String, List<Long>> byKey = new TreeMap<>();
      callers.forEach(
          caller -> {
            int ordinal = this.callers.indexOf(caller);
            String key = ordinal < 0 ? "(not a caller of this run)" : keyOf.get(ordinal);
            byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(caller.requestId());
          });
      return byKey;
    }

    /** The ordinals of the callers of JVM {@code jvm} that {@code which} lists for their key. */
    List<Integer> ordinals(int jvm, BiFunction<LockModel, String, List<Caller>> which) {
      return ordinals(which).stream().filter(n -> callers.get(n - 1).jvm() == jvm).toList();
    }

    /** Each JVM heard exactly the grants the model made to its callers, in order. */
    private void checkHandOvers(String key, List<LockModel.Grantee> expected, String after) {
      for (int jvm = 0; jvm < jvms().size(); jvm++) {
        int j = jvm;
        List<LockModel.Grantee> toThisJvm =
            expected.stream().filter(g -> g.caller().jvm() == j).toList();
        List<HandOver> heard = newHandOvers(jvm);
        assertThat(heard.stream().map(HandOver::requestId).toList())
            .as("hand-overs heard by jvm%s after %s", jvm, after)
            .isEqualTo(toThisJvm.stream().map(g -> g.caller().requestId()).toList());
        for (int i = 0; i < heard.size(); i++) {
          LockModel.Grantee grantee = toThisJvm.get(i);
          checkToken(key, grantee.caller(), grantee.mode(), heard.get(i).fencingToken());
        }
      }
    }

    private void checkToken(String key, Caller caller, LockMode mode, long token) {
      long highest = highestToken.getOrDefault(key, 0L);
      if (mode == LockMode.WRITE) {
        assertThat(token)
            .as("write token of %s on %s: above every token given on it before", caller, key)
            .isGreaterThan(highest);
        lastWriteToken.put(key, token);
      } else {
        assertThat(token)
            .as("read token of %s on %s: positive, no lower than its last write", caller, key)
            .isPositive()
            .isGreaterThanOrEqualTo(lastWriteToken.getOrDefault(key, 0L));
      }
      highestToken.put(key, Math.max(highest, token));
      tokenOf.put(caller, token);
    }

    void checkView() {
      for (String key : KEYS) {
        LockKeySnapshot view = jvms().get(0).locks().inspect(spec, key);
        assertThat(view.writer().isPresent())
            .as("a writer of %s on %s", key, model)
            .isEqualTo(model.writer(key).isPresent());
        assertThat(view.readers())
            .as("readers of %s on %s", key, model)
            .hasSize(model.readers(key).size());
        assertThat(view.queued()).as("queued on %s on %s", key, model).isEqualTo(model.queued(key));
      }
    }

    @Override
    public String toString() {
      return spec.name() + " " + model;
    }
  }

  private final class Acquire implements Action<Run> {
    @Override
    public Gen<ChainStep<Run>> steps(Run run) {
      Gen<Integer> jvms = Gen.ints(0, jvms().size() - 1);
      Gen<LockMode> modes = Gen.of(LockMode.class);
      return draws -> {
        int jvm = jvms.next(draws);
        String key = KEY.next(draws);
        LockMode mode = modes.next(draws);
        boolean mayQueue = MAY_QUEUE.next(draws);
        return ChainStep.of(
            mode + " " + key + " in jvm" + jvm + (mayQueue ? ", may queue" : ""),
            r -> r.acquire(jvm, key, mode, mayQueue));
      };
    }
  }

  /** What a planned operation of a batch does. */
  enum PlannedKind {
    ACQUIRE(null),
    POLL(LockModel::waitingOrGranted),
    CANCEL(LockModel::waitingOrGranted),
    RELEASE(LockModel::holders),
    RELEASE_AGAIN((model, key) -> model.gone());

    /** The callers it applies to, per key; none for an acquire, whose caller is new. */
    final BiFunction<LockModel, String, List<Caller>> which;

    PlannedKind(BiFunction<LockModel, String, List<Caller>> which) {
      this.which = which;
    }

    Operation operation(String key, long requestId) {
      return switch (this) {
        case ACQUIRE -> throw new IllegalStateException("an acquire's caller is new");
        case POLL -> Operation.poll(key, requestId);
        case CANCEL -> Operation.cancel(key, requestId);
        case RELEASE, RELEASE_AGAIN -> Operation.release(key, requestId);
      };
    }
  }

  /**
   * One operation of a planned batch: an acquire by a new caller (of {@code key} in {@code mode}),
   * or a step on the caller of ordinal {@code ordinal} (named by order, as the single actions do,
   * so that a shrunk run replays).
   */
  record Planned(PlannedKind kind, int ordinal, String key, LockMode mode, boolean mayQueue) {
    @Override
    public String toString() {
      return kind == PlannedKind.ACQUIRE
          ? mode + " " + key + (mayQueue ? " (may queue)" : "")
          : kind.name().toLowerCase(Locale.ROOT).replace('_', ' ') + " request " + ordinal;
    }
  }

  /** A batch of 2 to 8 operations from one JVM, on the callers of that JVM. */
  private final class Batch implements Action<Run> {
    @Override
    public Gen<ChainStep<Run>> steps(Run run) {
      return Gen.ints(0, jvms().size() - 1)
          .flatMap(
              jvm ->
                  planned(run, jvm)
                      .list(2, 8)
                      .map(
                          plan ->
                              ChainStep.of(
                                  "batch in jvm" + jvm + " " + plan, r -> r.batch(jvm, plan))));
    }

    private Gen<Planned> planned(Run run, int jvm) {
      List<Gen.Weighted<Planned>> choices = new ArrayList<>();
      Gen<LockMode> modes = Gen.of(LockMode.class);
      choices.add(
          Gen.Weighted.of(
              4,
              draws -> {
                String key = KEY.next(draws);
                LockMode mode = modes.next(draws);
                boolean mayQueue = MAY_QUEUE.next(draws);
                return new Planned(PlannedKind.ACQUIRE, 0, key, mode, mayQueue);
              }));
      for (PlannedKind kind : PlannedKind.values()) {
        if (kind != PlannedKind.ACQUIRE) {
          List<Integer> ordinals = run.ordinals(jvm, kind.which);
          if (!ordinals.isEmpty()) {
            int weight = kind == PlannedKind.RELEASE_AGAIN ? 1 : 3;
            choices.add(
                Gen.Weighted.of(
                    weight,
                    Gen.of(ordinals).map(n -> new Planned(kind, n, "", LockMode.WRITE, false))));
          }
        }
      }
      return Gen.frequency(choices);
    }
  }

  /** What a step does to one caller, on the key it asked for. */
  private interface OnCaller {
    void apply(Run run, String key, Caller caller);
  }

  /**
   * A step on one of the callers that {@code which} lists for the key it asked for (while any is);
   * on replay, a step whose caller is not listed any more does nothing.
   */
  private static Action<Run> onCaller(
      String name, BiFunction<LockModel, String, List<Caller>> which, OnCaller step) {
    return new Action<>() {
      @Override
      public boolean precondition(Run run) {
        return !run.ordinals(which).isEmpty();
      }

      @Override
      public Gen<ChainStep<Run>> steps(Run run) {
        return Gen.of(run.ordinals(which))
            .map(
                n ->
                    ChainStep.of(
                        name + " request " + n,
                        r -> {
                          if (r.ordinals(which).contains(n)) {
                            step.apply(r, r.keyOf.get(n - 1), r.callers.get(n - 1));
                          }
                        }));
      }
    };
  }
}
